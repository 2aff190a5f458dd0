import type { CoinBalanceReader } from '../../common/coin-balances.js';
import type { Database } from '../../db/database.js';
import { walletQueries } from './wallet.repository.js';

/** The wallet's answer to "what does this user hold", for the modules that show it. */
export function coinBalances(db: Database): CoinBalanceReader {
  const q = walletQueries(db);
  return {
    async balanceOf(userId) {
      return (await q.balanceOf(userId)) ?? '0';
    },
  };
}
