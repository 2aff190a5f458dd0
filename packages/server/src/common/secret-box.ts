import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './keys.js';

/**
 * AES-256-GCM encryption of small secrets at rest (TOTP seeds, exchange keys).
 * Stored form: `<keyId>:<iv>:<tag>:<ciphertext>` (base64url parts); the key id lets a later
 * key rotation decrypt old values with the old key.
 */
export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(stored: string): string;
}

const CURRENT_KEY_ID = 'v1';

export function createSecretBox(secretKey: string): SecretBox {
  const keys: Record<string, Buffer> = {
    [CURRENT_KEY_ID]: deriveKey(secretKey, 'secret-box-v1'),
  };
  return {
    encrypt(plaintext) {
      const key = keys[CURRENT_KEY_ID]!;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [CURRENT_KEY_ID, iv, tag, ciphertext]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join(':');
    },
    decrypt(stored) {
      const [keyId, iv, tag, ciphertext] = stored.split(':');
      const key = keyId ? keys[keyId] : undefined;
      if (!key || iv === undefined || tag === undefined || ciphertext === undefined) {
        throw new Error('Unreadable encrypted value');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
