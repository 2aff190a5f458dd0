/**
 * A user's platform-coin balance, as the wallet (its one writer) answers it: a decimal string,
 * '0' for a user who never held coins. Modules that show a balance (sign-in answers, profiles)
 * take this from the composition root instead of reading the wallet's table.
 */
export interface CoinBalanceReader {
  balanceOf(userId: number): Promise<string>;
}
