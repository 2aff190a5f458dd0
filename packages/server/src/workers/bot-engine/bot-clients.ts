import type { Clock } from '../../common/clock.js';
import type { SecretBox } from '../../common/secret-box.js';
import type { Database } from '../../db/database.js';
import type { ExchangeClient } from '../../exchange/exchange-client.js';
import { createPaperExchangeClient } from '../../exchange/paper/paper-exchange-client.js';
import { createAccountClients } from '../../modules/exchange-accounts/account-clients.js';
import type { ExchangeClientFactory } from '../../modules/exchange-accounts/exchange-client-factory.js';
import type { BotClients } from './bot-engine.types.js';

/**
 * The engine's clients: the app's factory (keys decrypted per call), except that a paper close
 * at a stop-loss/take-profit level gets a paper client whose price is that level — the paper
 * account then fills where the backtest fills (slippage and fee still apply).
 */
export function createBotClients(deps: {
  db: Database;
  clock: Clock;
  secretBox: SecretBox;
  factory: ExchangeClientFactory;
  paperSlippageBps: number;
}): BotClients {
  const accountClient = createAccountClients({ secretBox: deps.secretBox, factory: deps.factory });
  // One client per account version: a ccxt client loads its markets once and keeps them.
  const cache = new Map<number, { version: number; client: ExchangeClient }>();
  return (account, paperFillPrice) => {
    if (account.isPaper && paperFillPrice !== undefined) {
      return createPaperExchangeClient({
        db: deps.db,
        clock: deps.clock,
        prices: { lastPrice: async () => paperFillPrice },
        accountId: account.id,
        exchange: account.exchange,
        slippageBps: deps.paperSlippageBps,
      });
    }
    const version = account.updatedAt.getTime();
    const cached = cache.get(account.id);
    if (cached && cached.version === version) return cached.client;
    const client = accountClient(account);
    cache.set(account.id, { version, client });
    return client;
  };
}
