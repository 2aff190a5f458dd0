import type { Exchange, PositionMode } from '@quantsquare/contracts';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/database.js';
import type { ExchangeClient } from './exchange-client.js';
import type { PaperBalanceWriter } from './paper/paper-balances.js';
import { createPaperDesk } from './paper/paper-desk.js';
import { createPaperExchangeClient } from './paper/paper-exchange-client.js';
import type { PriceSource } from './paper/price-source.js';

/** What a client needs to reach one account: decrypted keys for live, the id for paper. */
export interface ExchangeAccountCredentials {
  readonly id: number;
  readonly exchange: Exchange;
  readonly isPaper: boolean;
  readonly isTestnet: boolean;
  readonly positionMode: PositionMode;
  readonly apiKey: string | null;
  readonly apiSecret: string | null;
  readonly apiPassword: string | null;
}

/** Builds the ExchangeClient of an account; services and workers receive one (tests inject). */
export type ExchangeClientFactory = (account: ExchangeAccountCredentials) => ExchangeClient;

/** The ccxt client's constructor, as `createCcxtExchangeClient` takes it. */
export type LiveClientConstructor = (options: {
  exchange: Exchange;
  apiKey: string;
  apiSecret: string;
  apiPassword?: string;
  isTestnet: boolean;
  positionMode: PositionMode;
}) => ExchangeClient;

/** Paper accounts get the paper client, live ones the ccxt client. */
export function createExchangeClientFactory(deps: {
  db: Database;
  clock: Clock;
  prices: PriceSource;
  paperSlippageBps: number;
  /** Writes paper balances (the accounts module's; the composition root passes it). */
  paperBalances: PaperBalanceWriter;
  createLiveClient: LiveClientConstructor;
}): ExchangeClientFactory {
  // One desk for every paper account: orders that arrive together fill in one transaction.
  const desk = createPaperDesk(deps.db, deps.paperBalances);
  return (account) =>
    account.isPaper
      ? createPaperExchangeClient({
          db: deps.db,
          clock: deps.clock,
          prices: deps.prices,
          accountId: account.id,
          exchange: account.exchange,
          slippageBps: deps.paperSlippageBps,
          paperBalances: deps.paperBalances,
          desk,
        })
      : deps.createLiveClient({
          exchange: account.exchange,
          apiKey: account.apiKey ?? '',
          apiSecret: account.apiSecret ?? '',
          ...(account.apiPassword ? { apiPassword: account.apiPassword } : {}),
          isTestnet: account.isTestnet,
          positionMode: account.positionMode,
        });
}
