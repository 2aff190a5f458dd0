import type { SecretBox } from '../../common/secret-box.js';

export interface StoredSecret {
  /** e.g. "users.totp_secret#3": where the value lives (for the report, never the value). */
  readonly where: string;
  readonly stored: string;
}

export interface RotationPlan {
  /** New stored forms under the current key, by `where`. */
  readonly reencrypted: Map<string, string>;
  readonly alreadyCurrent: number;
  readonly unreadable: string[];
}

/**
 * Decides each stored secret's fate: readable with the current key → left alone; readable with
 * the old key → re-encrypted under the current one; neither → unreadable (the caller aborts).
 * AES-GCM's tag tells which key a value was sealed with.
 */
export function planSecretRotation(
  secrets: readonly StoredSecret[],
  current: SecretBox,
  old: SecretBox | undefined,
): RotationPlan {
  const reencrypted = new Map<string, string>();
  const unreadable: string[] = [];
  let alreadyCurrent = 0;
  for (const secret of secrets) {
    if (canDecrypt(current, secret.stored)) {
      alreadyCurrent += 1;
      continue;
    }
    const plaintext = old ? tryDecrypt(old, secret.stored) : undefined;
    if (plaintext === undefined) unreadable.push(secret.where);
    else reencrypted.set(secret.where, current.encrypt(plaintext));
  }
  return { reencrypted, alreadyCurrent, unreadable };
}

function tryDecrypt(box: SecretBox, stored: string): string | undefined {
  try {
    return box.decrypt(stored);
  } catch {
    return undefined;
  }
}

const canDecrypt = (box: SecretBox, stored: string) => tryDecrypt(box, stored) !== undefined;
