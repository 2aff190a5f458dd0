import type { SecretBox } from '../common/secret-box.js';
import type { ExchangeAccountRow } from '../db/schema/index.js';
import type { ExchangeClient } from './exchange-client.js';
import type { ExchangeClientFactory } from './exchange-client-factory.js';

/** Decrypts an account's keys and builds its client; the plaintext lives only in the call. */
export function createAccountClients(deps: {
  secretBox: SecretBox;
  factory: ExchangeClientFactory;
}): (account: ExchangeAccountRow) => ExchangeClient {
  const open = (value: string | null) => (value === null ? null : deps.secretBox.decrypt(value));
  return (account) =>
    deps.factory({
      id: account.id,
      exchange: account.exchange,
      isPaper: account.isPaper,
      isTestnet: account.isTestnet,
      positionMode: account.positionMode,
      apiKey: open(account.apiKeyEncrypted),
      apiSecret: open(account.apiSecretEncrypted),
      apiPassword: open(account.apiPasswordEncrypted),
    });
}
export type AccountClients = ReturnType<typeof createAccountClients>;
