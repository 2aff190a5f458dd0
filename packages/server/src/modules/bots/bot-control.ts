// What the bots service needs from the bot engine (src/workers/bot-engine/), so the API and the
// engine stay apart: the service checks the rules and records the status; the engine trades.

export interface BotControl {
  /** The bot (status already `running` in the database) joins its feed's next candle close. */
  startBot(botId: number): Promise<void>;
  /**
   * The bot leaves its feed; its open position is closed at market (reduce-only) and its
   * protective orders cancelled, so a stopped bot never leaves an unwatched position behind.
   */
  stopBot(botId: number): Promise<void>;
  /**
   * Closes the open position of a bot that is not running (at market, reduce-only, protective
   * orders cancelled, the fill logged) with the engine's own close path. Resolves when the bot
   * holds no position; throws (after recording the failure on the bot) when it could not be
   * closed, or when the bot is running (stop it first).
   */
  closePosition(botId: number): Promise<void>;
}
