import type { SecretBox } from '../common/secret-box.js';
import type { ExchangeAccountRow } from '../db/schema/index.js';
import { createAccountClients } from '../exchange/account-clients.js';
import type { ExchangeClient } from '../exchange/exchange-client.js';
import type { ExchangeClientFactory } from '../exchange/exchange-client-factory.js';
import type { AccountClients } from './execution.types.js';

/**
 * The accounts' clients: one per account and what it is built from (a ccxt client loads its
 * markets once and keeps them; a changed account — new keys, another mode — gets a new client).
 */
export function createAccountClientCache(deps: {
  secretBox: SecretBox;
  factory: ExchangeClientFactory;
}): AccountClients {
  const build = createAccountClients(deps);
  const cache = new Map<number, { version: string; client: ExchangeClient }>();
  return (account: ExchangeAccountRow) => {
    // What a client is built from: a change of any (new keys, mode, testnet) builds a new one.
    const version = [
      account.exchange,
      account.isPaper,
      account.isTestnet,
      account.positionMode,
      account.apiKeyEncrypted,
      account.apiSecretEncrypted,
      account.apiPasswordEncrypted,
    ].join('|');
    const cached = cache.get(account.id);
    if (cached && cached.version === version) return cached.client;
    const client = build(account);
    cache.set(account.id, { version, client });
    return client;
  };
}
