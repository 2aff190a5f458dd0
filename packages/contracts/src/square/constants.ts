// The strategy square: its constants (document 2 §9).

// ---- constants (document 2 §9) -------------------------------------------------------------

export const SQUARE_PAGE_SIZE = 12;
export const SQUARE_PAGE_SIZE_MAX = 50;
export const SQUARE_SEARCH_DEBOUNCE_MS = 500;
export const SQUARE_SEARCH_MAX_LENGTH = 50;
/** Paging shows at most this many page numbers, with ellipses. */
export const SQUARE_PAGE_NUMBERS_SHOWN = 7;

/** live_delta: smallest |live − backtest| of the account's bots first (none: last). */
export const SQUARE_SORTS = [
  'copiers',
  'pnl',
  'latest',
  'win_rate',
  'sharpe_ratio',
  'live_delta',
] as const;
export type SquareSort = (typeof SQUARE_SORTS)[number];
export const SQUARE_DEFAULT_SORT: SquareSort = 'copiers';

export const SQUARE_PERIODS = ['daily', 'weekly', 'monthly', 'total'] as const;
export type SquarePeriod = (typeof SQUARE_PERIODS)[number];
export const SQUARE_DEFAULT_PERIOD: SquarePeriod = 'monthly';
/** Hours each period looks back (daily 24 h, weekly 7 d, monthly 30 d); total is all history. */
export const SQUARE_PERIOD_HOURS: Readonly<Record<SquarePeriod, number | null>> = {
  daily: 24,
  weekly: 7 * 24,
  monthly: 30 * 24,
  total: null,
};

export const SQUARE_QUICK_TAGS = [
  'high_return',
  'low_risk',
  'stable',
  'trending',
  'honest',
] as const;
export type SquareQuickTag = (typeof SQUARE_QUICK_TAGS)[number];
/** What each quick tag sets (a tag without a period keeps the current one). */
export const SQUARE_QUICK_TAG_FILTERS: Readonly<
  Record<SquareQuickTag, { sort: SquareSort; period?: SquarePeriod; honest?: true }>
> = {
  high_return: { sort: 'pnl', period: 'monthly' },
  low_risk: { sort: 'sharpe_ratio' },
  stable: { sort: 'win_rate' },
  trending: { sort: 'copiers', period: 'weekly' },
  honest: { sort: 'live_delta', honest: true },
};

/**
 * "Honest strategies": bots live at least this many days whose live return is within this many
 * percentage points of their backtest's on the same candles.
 */
export const HONEST_MIN_LIVE_DAYS = 14;
export const HONEST_MAX_ABS_DELTA_PCT = 5;

/** A strategy with less history is marked new and not ranked by sharpe_ratio or win_rate. */
export const NEW_STRATEGY_HISTORY_DAYS = 7;
/** The card's equity sparkline: one point a day over this many days. */
export const SPARKLINE_DAYS = 30;
/** Without snapshots the card draws an illustrative curve of this many days from this base. */
export const SYNTHETIC_CURVE_DAYS = 30;
export const SYNTHETIC_CURVE_BASE = 10_000;

export const STRATEGY_NAME_MAX_LENGTH = 50;
export const SHARE_DESCRIPTION_MAX_LENGTH = 2000;
/** Bytes of description HTML a client may send (the 2,000 visible characters plus markup). */
export const SHARE_DESCRIPTION_MAX_HTML_LENGTH = 50_000;

export const COMMENT_MAX_LENGTH = 500;
export const COMMENTS_PAGE_SIZE = 20;
/** Comments one user may post: per minute and per hour (answered 429 beyond). */
export const COMMENT_RATE_PER_MINUTE = 5;
export const COMMENT_RATE_PER_HOUR = 60;

/** The live trade table keeps this many rows; a new row is highlighted this long. */
export const LIVE_TRADES_KEPT = 20;
export const LIVE_TRADE_HIGHLIGHT_MS = 1000;
export const STRATEGY_TRADES_LIMIT_MAX = 100;
/** The strategy page's websocket: the client pings this often and reconnects after this delay. */
export const STRATEGY_WS_PING_INTERVAL_MS = 30_000;
export const STRATEGY_WS_RECONNECT_DELAY_MS = 5_000;
/** Close code sent when a strategy stops being public while viewers watch it. */
export const STRATEGY_WS_CLOSE_NOT_PUBLIC = 4404;
/**
 * Close code sent to a viewer too slow to follow the live frames (its unsent frames passed the
 * server's bound): it missed frames, so it reconnects (replaying the trades it missed after its
 * last one, or reloading) and goes on live. The server sends a `resync` frame before it.
 */
export const WS_CLOSE_RESYNC = 4408;

/** Server texts of the square (document 2 §8 where it names them). */
export const SQUARE_MESSAGES = {
  strategyNotFound: 'strategy not found or not public',
  accountNotFound: 'Exchange account not found',
  tradesHidden: 'This strategy does not show its trades',
  positionsHidden: 'This strategy does not show its positions',
  commentsDisabled: 'Comments are turned off for this strategy',
  commentNotFound: 'Comment not found',
  commentEmpty: 'The comment cannot be empty',
  commentTooLong: `The comment can be at most ${COMMENT_MAX_LENGTH} characters`,
  commentTooFast: 'You are commenting too fast, try again later',
  replyNotHere: 'The comment you reply to is not on this strategy',
  userNotFound: 'User not found',
  cannotFollowSelf: 'You cannot follow yourself',
  descriptionTooLong: `The description can be at most ${SHARE_DESCRIPTION_MAX_LENGTH} characters`,
  nameRequired: 'The strategy name cannot be empty',
} as const;

/**
 * The square's own error codes (answer codes); its field rules (empty or too long comments,
 * names, descriptions) answer the shared field codes `required` and `too_long`.
 */
export const SQUARE_ERROR_CODES = {
  strategyNotFound: 'strategy_not_found',
  accountNotFound: 'account_not_found',
  tradesHidden: 'trades_hidden',
  positionsHidden: 'positions_hidden',
  commentsDisabled: 'comments_disabled',
  commentNotFound: 'comment_not_found',
  commentTooFast: 'comment_too_fast',
  replyNotHere: 'invalid_parent',
  userNotFound: 'user_not_found',
  cannotFollowSelf: 'cannot_follow_self',
} as const;
