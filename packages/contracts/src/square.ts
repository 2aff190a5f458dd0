import { z } from 'zod';
import { ACCOUNT_TYPES } from './accounts.js';
import { EXCHANGES } from './limits.js';

// The strategy square (document 2 §2 square, detail, public profile, §3, §4, §7, §8, §9) and the
// share settings of an exchange account (document 1 §3 Share settings, §4 Share toggle, §7, §8).
// A "strategy" is a published exchange account: its id IS the exchange account id.

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

// ---- share settings (document 1) -------------------------------------------------------------

/** GET /strategy-square/accounts/{id}/check-share-status/ */
export const shareStatusResponse = z.object({
  has_share_settings: z.boolean(),
  is_public: z.boolean(),
  updated_at: z.string().nullable(),
});
export type ShareStatusResponse = z.infer<typeof shareStatusResponse>;

/**
 * GET/PUT /strategy-square/accounts/{id}/share-settings/ (owner only; 404 for anyone else).
 * Before the first PUT, GET answers the defaults with `updated_at: null`.
 */
export const shareSettings = z.object({
  account_id: z.number().int(),
  /** The strategy's name on the square; the account's name until the owner sets one. */
  name: z.string(),
  is_public: z.boolean(),
  accept_copy: z.boolean(),
  show_trades: z.boolean(),
  show_positions: z.boolean(),
  allow_comments: z.boolean(),
  /** Written by copy trading; read-only here. */
  copiers_count: z.number().int(),
  /** Platform coins earned from copy fees, a decimal string; read-only here. */
  total_copy_earnings: z.string(),
  /** Sanitised HTML (the editor's allowlist), at most 2,000 visible characters. */
  description: z.string(),
  updated_at: z.string().nullable(),
  /** When the account first became public; null while it never was. */
  published_at: z.string().nullable(),
});
export type ShareSettings = z.infer<typeof shareSettings>;

/**
 * PUT body: any subset of the writable fields. Switching `is_public` off also resets
 * accept_copy, show_trades, show_positions and allow_comments to true (document 1 §4).
 * The read-only fields may be sent back unchanged; they are ignored.
 */
export const shareSettingsUpdateRequest = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { message: SQUARE_MESSAGES.nameRequired })
    .max(STRATEGY_NAME_MAX_LENGTH)
    .optional(),
  is_public: z.boolean().optional(),
  accept_copy: z.boolean().optional(),
  show_trades: z.boolean().optional(),
  show_positions: z.boolean().optional(),
  allow_comments: z.boolean().optional(),
  description: z.string().max(SHARE_DESCRIPTION_MAX_HTML_LENGTH).optional(),
  account_id: z.unknown().optional(),
  copiers_count: z.unknown().optional(),
  total_copy_earnings: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  published_at: z.unknown().optional(),
});
export type ShareSettingsUpdateRequest = z.infer<typeof shareSettingsUpdateRequest>;

// ---- metrics ----------------------------------------------------------------------------------

/**
 * One period's figures. Returns are time-weighted (deposits and withdrawals do not move them),
 * in percent; `pnl` is USDT earned by trading (flows excluded); `max_drawdown` is a positive
 * percent of the time-weighted equity index; Sharpe and Sortino are annualised from hourly
 * returns (null with fewer than two hourly returns, or no spread / no losing hour).
 * `win_rate` is null without a closed trade in the period.
 */
export const periodMetrics = z.object({
  return_percent: z.number(),
  pnl: z.number(),
  max_drawdown: z.number(),
  win_rate: z.number().nullable(),
  sharpe_ratio: z.number().nullable(),
  sortino_ratio: z.number().nullable(),
  trades_count: z.number().int(),
  copiers_count: z.number().int(),
  /**
   * Copy trading's figures, the same in every period (each relation counts since it began):
   * the copied P&L (USDT) of the strategy's relations not deleted (any status), and the mean of
   * their copy efficiencies (follower return ÷ the leader's return over the same span, a ratio:
   * 1 = matched) over the relations where it is defined (null when none is: nobody copies, or
   * the leader has not moved since).
   */
  copier_pnl: z.number(),
  copy_efficiency: z.number().nullable(),
});
export type PeriodMetrics = z.infer<typeof periodMetrics>;

// ---- the square -------------------------------------------------------------------------------

const booleanTrue = z.enum(['true']);

/** GET /strategy-square/strategies/ query. `search` matches the strategy name, `user_search` the nickname. */
export const strategyListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(SQUARE_PAGE_SIZE_MAX).default(SQUARE_PAGE_SIZE),
  exchange: z.enum(EXCHANGES).optional(),
  sort: z.enum(SQUARE_SORTS).default(SQUARE_DEFAULT_SORT),
  period: z.enum(SQUARE_PERIODS).default(SQUARE_DEFAULT_PERIOD),
  search: z.string().trim().max(SQUARE_SEARCH_MAX_LENGTH).optional(),
  user_search: z.string().trim().max(SQUARE_SEARCH_MAX_LENGTH).optional(),
  /** Only public strategies are ever listed; the spec's client sends it. */
  is_public: booleanTrue.optional(),
  /** Only "honest" strategies (HONEST_MIN_LIVE_DAYS, HONEST_MAX_ABS_DELTA_PCT). */
  honest: booleanTrue.optional(),
});
export type StrategyListQuery = z.infer<typeof strategyListQuery>;

export const sparklinePoint = z.object({ timestamp: z.string(), balance: z.number() });
export type SparklinePoint = z.infer<typeof sparklinePoint>;

export const strategyOwner = z.object({
  user_id: z.number().int(),
  /** '' when the owner set none (shown as Anonymous). */
  nickname: z.string(),
  avatar_url: z.string().nullable(),
  followers_count: z.number().int(),
});
export type StrategyOwner = z.infer<typeof strategyOwner>;

/** A square card (also the items of a user's public strategies). */
export const strategyCard = z.object({
  id: z.number().int(),
  name: z.string(),
  exchange: z.enum(EXCHANGES),
  account_type: z.enum(ACCOUNT_TYPES),
  is_paper: z.boolean(),
  /** USDT equity at the last snapshot. */
  balance: z.number(),
  /** Time-weighted return over all history, percent. */
  total_pnl_percent: z.number(),
  /** Time-weighted return over the requested period, percent. */
  total_profit_rate: z.number(),
  /** Over the requested period, positive percent. */
  max_drawdown: z.number(),
  period: z.enum(SQUARE_PERIODS),
  metrics: periodMetrics,
  days_of_history: z.number(),
  /** Under 7 days of history: not ranked by sharpe_ratio or win_rate. */
  is_new: z.boolean(),
  published_at: z.string().nullable(),
  /** One point a day over the last 30 days, oldest first; [] before the first snapshot. */
  snapshots: z.array(sparklinePoint),
  user_id: z.number().int(),
  user_profile: strategyOwner,
  share_settings: z.object({ accept_copy: z.boolean(), copiers_count: z.number().int() }),
  /** Live against backtest of its bots (hourly); null when no bot has traded live. */
  live_check: z
    .object({ live_days: z.number(), delta_pct: z.number(), is_honest: z.boolean() })
    .nullable(),
});
export type StrategyCard = z.infer<typeof strategyCard>;

export const squareStats = z.object({
  /** Public strategies (on the exchange filter, when given). */
  total: z.number().int(),
  /** Of those, the ones that traded in the period. */
  active: z.number().int(),
  /** Copiers of all of them. */
  copiers: z.number().int(),
  /** Mean time-weighted return over the period, percent. */
  avg_return: z.number(),
});
export type SquareStats = z.infer<typeof squareStats>;

export const strategyListResponse = z.object({
  results: z.array(strategyCard),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  stats: squareStats,
});
export type StrategyListResponse = z.infer<typeof strategyListResponse>;

// ---- strategy detail --------------------------------------------------------------------------

/** GET /strategy-square/strategies/{id}/ query: the equity curve's range (default monthly). */
export const strategyDetailQuery = z.strictObject({
  period: z.enum(SQUARE_PERIODS).default(SQUARE_DEFAULT_PERIOD),
});

/** Equity point: `time` in seconds (UTC). */
export const equityPoint = z.object({ time: z.number().int(), value: z.number() });
export type EquityPoint = z.infer<typeof equityPoint>;

export const TRADE_SIDES = ['buy', 'sell'] as const;
/**
 * What a fill did to its owner's position: `open` (opened or added) or `close` (reduced or
 * closed). A reversal is two fills of one side, a close and an open.
 */
export const TRADE_EFFECTS = ['open', 'close'] as const;
export type TradeEffect = (typeof TRADE_EFFECTS)[number];
export const tradeMarker = z.object({
  timestamp: z.string(),
  type: z.enum(TRADE_SIDES),
  effect: z.enum(TRADE_EFFECTS),
});
export type TradeMarker = z.infer<typeof tradeMarker>;

/** A published account's bots, live against their backtests (the bots' hourly comparisons). */
export const strategyLiveCheck = z.object({
  live_days: z.number(),
  /** Weighted by the bots' trade amounts. */
  delta_pct: z.number(),
  live_return_pct: z.number(),
  backtest_return_pct: z.number(),
  computed_at: z.string(),
  bots: z.array(
    z.object({
      symbol: z.string(),
      timeframe: z.string(),
      strategy_type: z.string(),
      live_days: z.number(),
      delta_pct: z.number(),
      live_return_pct: z.number(),
      backtest_return_pct: z.number(),
      matched: z.number().int(),
      missed: z.number().int(),
      extra: z.number().int(),
      fee_diff: z.number(),
      slippage_diff: z.number(),
      /** Times in ms; equity on the bot's trade amount. */
      live_curve: z.array(z.object({ time: z.number(), equity: z.number() })),
      backtest_curve: z.array(z.object({ time: z.number(), equity: z.number() })),
    }),
  ),
});
export type StrategyLiveCheck = z.infer<typeof strategyLiveCheck>;

export const strategyDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  exchange: z.enum(EXCHANGES),
  /** The exchange account's id (the same as `id`). */
  account: z.number().int(),
  account_type: z.enum(ACCOUNT_TYPES),
  is_paper: z.boolean(),
  user_id: z.number().int(),
  user_profile: strategyOwner.extend({ is_following: z.boolean() }),
  share_settings: z.object({
    is_public: z.boolean(),
    accept_copy: z.boolean(),
    show_trades: z.boolean(),
    show_positions: z.boolean(),
    allow_comments: z.boolean(),
    copiers_count: z.number().int(),
    description: z.string(),
  }),
  total_pnl_percent: z.number(),
  daily_pnl_percent: z.number(),
  /** Over all history, positive percent (the page shows it negative). */
  max_drawdown: z.number(),
  balance: z.number(),
  metrics: z.object({
    daily: periodMetrics,
    weekly: periodMetrics,
    monthly: periodMetrics,
    total: periodMetrics,
  }),
  days_of_history: z.number(),
  is_new: z.boolean(),
  /** Over the requested period, oldest first (hourly; daily points for total). */
  equity_curve: z.array(equityPoint),
  /** B/S markers of the fills in the curve's range; [] when the strategy hides its trades. */
  trades: z.array(tradeMarker),
  /** Whether the viewer has a copy relation on it that is not deleted (a stopped one counts). */
  is_copying: z.boolean(),
  is_owner: z.boolean(),
  published_at: z.string().nullable(),
  /** When the metrics were last computed; null before the first computation. */
  metrics_updated_at: z.string().nullable(),
  /** Its bots live against their backtests; null when no bot of the account has been live. */
  live_vs_backtest: strategyLiveCheck.nullable(),
});
export type StrategyDetail = z.infer<typeof strategyDetail>;

/** A fill of the strategy's account (document 2 §3 Realtime trade). */
export const strategyTrade = z.object({
  /** Unique per fill (partial fills of one order share `order_id`). */
  id: z.string(),
  order_id: z.string(),
  timestamp: z.string(),
  symbol: z.string(),
  side: z.enum(TRADE_SIDES),
  effect: z.enum(TRADE_EFFECTS),
  amount: z.number(),
  price: z.number(),
  /** amount × price, USDT. */
  value: z.number(),
});
export type StrategyTrade = z.infer<typeof strategyTrade>;

export const strategyTradesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(STRATEGY_TRADES_LIMIT_MAX).default(LIVE_TRADES_KEPT),
});
/** Newest first. 403 when the strategy hides its trades. */
export const strategyTradeList = z.object({
  results: z.array(strategyTrade),
  count: z.number().int(),
});
export type StrategyTradeList = z.infer<typeof strategyTradeList>;

/** A current position of the strategy's account (document 2 §3 Realtime position). */
export const strategyPosition = z.object({
  symbol: z.string(),
  side: z.enum(['long', 'short']),
  leverage: z.number(),
  /** Base-asset quantity. */
  contracts: z.number(),
  entry_price: z.number(),
  /** Null when no price is known (the page falls back to the entry price). */
  mark_price: z.number().nullable(),
  unrealized_pnl: z.number(),
  /** Unrealised P&L against the position's margin, percent. */
  percentage: z.number(),
});
export type StrategyPosition = z.infer<typeof strategyPosition>;
/** 403 when the strategy hides its positions. */
export const strategyPositionList = z.object({
  results: z.array(strategyPosition),
  count: z.number().int(),
});
export type StrategyPositionList = z.infer<typeof strategyPositionList>;

// ---- live updates: /ws/strategies/{id} ----------------------------------------------------------

/** What `statistics_update` carries (merged into the strategy on the page). */
export const strategyStatistics = z.object({
  total_pnl_percent: z.number(),
  daily_pnl_percent: z.number(),
  max_drawdown: z.number(),
  balance: z.number(),
  days_of_history: z.number(),
  is_new: z.boolean(),
});
export type StrategyStatistics = z.infer<typeof strategyStatistics>;

/** Server → client frames. trade_update only when show_trades, position_update only when show_positions. */
export type StrategySocketFrame =
  | { type: 'trade_update'; data: StrategyTrade }
  | { type: 'position_update'; data: StrategyPosition[] }
  | { type: 'statistics_update'; data: StrategyStatistics }
  | { type: 'pong'; timestamp: number }
  /**
   * Answers a reconnection with `?after=<last trade id>` whose missed trades can no longer be
   * replayed (older than the event log keeps): reload the trades instead.
   */
  | { type: 'resync' };
/** Client → server: `{type: 'ping', timestamp}` is answered with `{type: 'pong', timestamp}`. */
export const strategySocketPing = z.object({
  type: z.literal('ping'),
  timestamp: z.number().optional(),
});

// ---- social -----------------------------------------------------------------------------------

export const followResponse = z.object({
  is_following: z.boolean(),
  followers_count: z.number().int(),
});
export type FollowResponse = z.infer<typeof followResponse>;

/** The four counts on a profile (also /my/settings). */
export const socialStats = z.object({
  following_count: z.number().int(),
  followers_count: z.number().int(),
  public_strategies_count: z.number().int(),
  total_copiers: z.number().int(),
});
export type SocialStats = z.infer<typeof socialStats>;

/** GET /strategy-square/users/{id}/profile/: never an e-mail or phone. */
export const publicProfile = socialStats.extend({
  user_id: z.number().int(),
  nickname: z.string(),
  bio: z.string(),
  avatar_url: z.string().nullable(),
  /** When the user joined. */
  created_at: z.string(),
  is_following: z.boolean(),
  is_self: z.boolean(),
  /** Only on one's own profile. */
  platform_balance: z.string().optional(),
});
export type PublicProfile = z.infer<typeof publicProfile>;

/** GET /strategy-square/users/{id}/detail/: the profile and its public strategies. */
export const publicProfileDetail = publicProfile.extend({ strategies: z.array(strategyCard) });
export type PublicProfileDetail = z.infer<typeof publicProfileDetail>;

export const userStrategiesQuery = z.strictObject({
  period: z.enum(SQUARE_PERIODS).default(SQUARE_DEFAULT_PERIOD),
});
export const userStrategyList = z.object({
  results: z.array(strategyCard),
  count: z.number().int(),
});
export type UserStrategyList = z.infer<typeof userStrategyList>;

export const commentCreateRequest = z.strictObject({
  content: z
    .string()
    .max(COMMENT_MAX_LENGTH * 4)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, { message: SQUARE_MESSAGES.commentEmpty })
        .refine((s) => [...s].length <= COMMENT_MAX_LENGTH, {
          message: SQUARE_MESSAGES.commentTooLong,
          params: { code: 'too_long' },
        }),
    ),
  /** Reply to this comment; a reply to a reply joins its thread (one level of nesting). */
  parent_id: z.number().int().positive().nullable().optional(),
});
export type CommentCreateRequest = z.infer<typeof commentCreateRequest>;

export const commentListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(COMMENTS_PAGE_SIZE),
});

const commentFields = {
  id: z.number().int(),
  content: z.string(),
  parent_id: z.number().int().nullable(),
  user_id: z.number().int(),
  user_nickname: z.string(),
  user_avatar: z.string().nullable(),
  created_at: z.string(),
  likes_count: z.number().int(),
  is_liked: z.boolean(),
};
export const strategyReply = z.object({ ...commentFields, replies: z.array(z.never()) });
/**
 * Plain text as the user typed it (trimmed): clients render it as text, never as HTML.
 * `replies` (oldest first) are filled on top-level comments only.
 */
export const strategyComment = z.object({ ...commentFields, replies: z.array(strategyReply) });
export type StrategyComment = z.infer<typeof strategyComment>;
export type StrategyReply = z.infer<typeof strategyReply>;

/** Top-level comments newest first (paged), each with its replies; `total` counts replies too. */
export const commentList = z.object({
  results: z.array(strategyComment),
  count: z.number().int(),
  total: z.number().int(),
});
export type CommentList = z.infer<typeof commentList>;

export const likeResponse = z.object({ is_liked: z.boolean(), likes_count: z.number().int() });
export type LikeResponse = z.infer<typeof likeResponse>;
