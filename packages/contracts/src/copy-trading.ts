import { z } from 'zod';
import { decimal, ID_MAX } from './common.js';
import { EXCHANGES } from './limits.js';
import { COPY_MIN_BALANCE_COINS, coinAmountInput } from './wallet.js';

// Copy trading (document 2 §1 copy modal, §4 copy management, §3 copy relation, §6 states, §7
// calls, §8 texts, §9 constants). A follower copies a public strategy (a leader exchange
// account) onto one of their own active accounts, normal or reverse, for COPY_FEE_COINS.
// Money, prices and sizes in answers are decimal strings (USDT or coins); percentages, ratios
// and chart series (pnl_series, equity_curve) are numbers.

export const COPY_AMOUNT_MIN = 10;
export const COPY_AMOUNT_DEFAULT = 100;
/** The modal's inputs (document 2 §6): amount step 1, max loss step 10; the edit modal 0.01. */
export const COPY_AMOUNT_STEP = 1;
export const COPY_EDIT_AMOUNT_STEP = 0.01;
export const COPY_MAX_LOSS_STEP = 10;
/** The largest copy amount or max loss one relation takes (USDT). */
export const COPY_AMOUNT_MAX = 10_000_000;
/** Late joiners: copy a current leader position only within this distance of its entry. */
export const COPY_ENTRY_DISTANCE_DEFAULT_PERCENT = 1;
export const COPY_ENTRY_DISTANCE_MAX_PERCENT = 20;
/** Entry slippage cap from the leader's fill: BTC and ETH, and every other symbol. */
export const COPY_SLIPPAGE_MAJOR_DEFAULT_PERCENT = 0.5;
export const COPY_SLIPPAGE_OTHER_DEFAULT_PERCENT = 1.5;
export const COPY_SLIPPAGE_MAX_PERCENT = 10;
export const COPY_DRAWDOWN_LIMIT_MAX_PERCENT = 100;

export const COPY_MODES = ['normal', 'reverse'] as const;
export type CopyMode = (typeof COPY_MODES)[number];

/** active (running) → paused → active; active | paused → stopped (final); stopped → deleted. */
export const COPY_STATUSES = ['active', 'paused', 'stopped'] as const;
export type CopyStatus = (typeof COPY_STATUSES)[number];

export const COPY_ACTIONS = ['pause', 'resume', 'stop'] as const;
export type CopyAction = (typeof COPY_ACTIONS)[number];

/** Which statuses each action may start from (document 2 §6); anything else answers 409. */
export const COPY_TRANSITIONS: Readonly<Record<CopyAction, readonly CopyStatus[]>> = {
  pause: ['active'],
  resume: ['paused'],
  stop: ['active', 'paused'],
};
export const COPY_EDITABLE_STATUSES: readonly CopyStatus[] = ['active', 'paused'];
export const COPY_DELETABLE_STATUSES: readonly CopyStatus[] = ['stopped'];

/** Why a relation stopped on its own, or why a leader fill was not copied. */
export const COPY_STOP_REASONS = ['user', 'max_loss', 'leader_drawdown', 'leader_gone'] as const;
export type CopyStopReason = (typeof COPY_STOP_REASONS)[number];

/** Why the platform paused a relation (its follower account disabled); null: its follower did. */
/** account_disabled: the follower's account was disabled; risk_*: its risk gate refused an opening. */
export const COPY_PAUSE_REASONS = ['account_disabled', 'risk_halted', 'risk_limit'] as const;
export type CopyPauseReason = (typeof COPY_PAUSE_REASONS)[number];

export const COPY_MISS_REASONS = [
  /** The follower's share is under the market's minimum amount or notional. */
  'below_minimum',
  /** The price moved beyond the entry slippage cap. */
  'capped',
  /** The follower account lacks the margin. */
  'insufficient_margin',
  /** The follower's API key was refused. */
  'invalid_key',
  'rate_limited',
  /** The relation was paused when the leader traded. */
  'paused',
  /** Late join: the leader's position was opened too far from the current price. */
  'too_far_from_entry',
  /** Any other exchange failure (its kind in `error_kind`). */
  'exchange_error',
] as const;
export type CopyMissReason = (typeof COPY_MISS_REASONS)[number];

/** Server texts (English; the web says each in its own words by code). */
export const COPY_MESSAGES = {
  amountTooSmall: `The copy amount cannot be less than ${COPY_AMOUNT_MIN} USDT`,
  amountTooLarge: `The copy amount may not exceed ${COPY_AMOUNT_MAX} USDT`,
  invalidAmount: 'Enter an amount in steps of 0.01',
  maxLossNegative: 'The max loss cannot be negative',
  followerAccountRequired: 'Choose one of your active trading accounts',
  followerAccountNotFound: 'This trading account does not exist or is not yours',
  followerAccountInactive: 'This trading account is not active',
  followerAccountCheckFailed:
    "This trading account's last connection check failed; test its API key before copying",
  followerIsLeader: 'A strategy cannot copy itself',
  leaderNotFound: 'This strategy does not exist or is not public',
  notAcceptingCopies: 'This strategy does not accept copying',
  ownStrategy: 'You cannot copy your own strategy',
  alreadyCopying: 'You already copy this strategy with this account',
  insufficientBalance: `Insufficient platform coin balance: at least ${COPY_MIN_BALANCE_COINS} coins are needed`,
  transitionRefused: 'This copy relation cannot do that in its current status',
  notEditable: 'Only an active or paused copy relation can be edited',
  notDeletable: 'Only a stopped copy relation can be deleted',
  positionsOpen:
    'The copied positions are still open; the copy can be deleted once they are closed',
} as const;

export const COPY_ERROR_CODES = {
  insufficientBalance: 'insufficient_balance',
  alreadyCopying: 'already_copying',
  transitionRefused: 'copy_transition_refused',
  /** A stopped copy whose positions did not close yet (the engine retries): not deleted. */
  positionsOpen: 'copy_positions_open',
  /** The strategy to copy is not public (or gone). */
  leaderNotFound: 'leader_not_found',
  /** Field codes: the follower account is the leader's, the strategy is one's own, or closed. */
  followerIsLeader: 'follower_is_leader',
  ownStrategy: 'own_strategy',
  notAcceptingCopies: 'not_accepting_copies',
} as const;

const money = z.string();

const copyAmountInput = coinAmountInput(COPY_MESSAGES.invalidAmount)
  .refine((text) => Number(text) >= COPY_AMOUNT_MIN, {
    message: COPY_MESSAGES.amountTooSmall,
    params: { code: 'too_small' },
  })
  .refine((text) => Number(text) <= COPY_AMOUNT_MAX, {
    message: COPY_MESSAGES.amountTooLarge,
    params: { code: 'too_big' },
  });
/** null, 0 or absent: no limit. */
const maxLossInput = z.union([
  z.null(),
  coinAmountInput(COPY_MESSAGES.invalidAmount).refine((text) => Number(text) <= COPY_AMOUNT_MAX, {
    message: COPY_MESSAGES.amountTooLarge,
    params: { code: 'too_big' },
  }),
]);
const percentInput = (max: number) => z.number().min(0).max(max);

/** POST /strategy-square/copy-trading/create/ */
export const copyCreateRequest = z.strictObject({
  /** The strategy id (the leader's exchange account id). */
  leader_account_id: z.number().int().positive().max(ID_MAX),
  follower_account_id: z.number().int().positive().max(ID_MAX),
  copy_amount: copyAmountInput.default(String(COPY_AMOUNT_DEFAULT)),
  max_loss: maxLossInput.default(null),
  copy_mode: z.enum(COPY_MODES).default('normal'),
  /** Late join: also open the leader's current positions now (within entry_distance_percent). */
  open_current_positions: z.boolean().default(false),
  entry_distance_percent: percentInput(COPY_ENTRY_DISTANCE_MAX_PERCENT)
    .positive()
    .default(COPY_ENTRY_DISTANCE_DEFAULT_PERCENT),
  /** Entry slippage cap from the leader's fill; null = the default per symbol. */
  max_slippage_percent: percentInput(COPY_SLIPPAGE_MAX_PERCENT).positive().nullable().default(null),
  /** Leader-drift breaker: stop when the leader's drawdown since the start exceeds it. */
  leader_drawdown_limit_percent: percentInput(COPY_DRAWDOWN_LIMIT_MAX_PERCENT)
    .positive()
    .nullable()
    .default(null),
});
export type CopyCreateRequest = z.input<typeof copyCreateRequest>;

/** PATCH /strategy-square/copy-trading/{id}/update/ (active or paused only). */
export const copyUpdateRequest = z.strictObject({
  copy_amount: copyAmountInput.optional(),
  max_loss: maxLossInput.optional(),
  max_slippage_percent: percentInput(COPY_SLIPPAGE_MAX_PERCENT).positive().nullable().optional(),
  leader_drawdown_limit_percent: percentInput(COPY_DRAWDOWN_LIMIT_MAX_PERCENT)
    .positive()
    .nullable()
    .optional(),
});
export type CopyUpdateRequest = z.input<typeof copyUpdateRequest>;

/** One copy relation (document 2 §3 Copy relation, plus what the detail and edit need). */
export const copyRelation = z.object({
  id: z.number().int(),
  leader_account_id: z.number().int(),
  /** The leader's raw account name (often the default "Experience account"); see strategy_name. */
  leader_account_name: z.string(),
  /** The name the leader published the account under on the square; null if never shared. */
  strategy_name: z.string().nullable(),
  /** The leader's nickname ('' if unset) and avatar, as the square shows them. */
  leader_nickname: z.string(),
  leader_avatar_url: z.string().nullable(),
  leader_exchange: z.enum(EXCHANGES),
  leader_user_id: z.number().int(),
  follower_account_id: z.number().int(),
  follower_account_name: z.string(),
  follower_exchange: z.enum(EXCHANGES),
  copy_amount: money,
  /** null: no limit. */
  max_loss: money.nullable(),
  copy_mode: z.enum(COPY_MODES),
  is_cross_exchange: z.boolean(),
  /** Copied P&L in USDT: realised + unrealised, net of fees. */
  total_profit_loss: money,
  /** total_profit_loss ÷ copy_amount × 100. */
  profit_percent: z.number(),
  total_copied_trades: z.number().int(),
  status: z.enum(COPY_STATUSES),
  /** Why it stopped (null while not stopped). */
  stop_reason: z.enum(COPY_STOP_REASONS).nullable(),
  /** Why the platform paused it (null while not paused, or paused by its follower). */
  pause_reason: z.enum(COPY_PAUSE_REASONS).nullable(),
  /** Platform coins paid for this relation (COPY_FEE_COINS). */
  fee_paid: money,
  follower_user: z.number().int(),
  /** Shown to the leader in followers/ only (masked); null in following/. */
  follower_email: z.string().nullable(),
  /** Shown to the leader in followers/ only (masked, e.g. 138****5678); null in following/. */
  follower_phone: z.string().nullable(),
  /** The follower's nickname ('' if unset), in followers/ only; null in following/. */
  follower_nickname: z.string().nullable(),
  max_slippage_percent: z.number().nullable(),
  leader_drawdown_limit_percent: z.number().nullable(),
  /**
   * Follower return ÷ the return the copy aims at since the start: the leader's, its opposite in
   * reverse mode. Null while the leader's return is 0.
   */
  copy_efficiency: z.number().nullable(),
  /** The last failure (a follower order refused, a position below minimum, …); null if none. */
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CopyRelation = z.infer<typeof copyRelation>;

export const copyFollowingResponse = z.object({
  results: z.array(copyRelation),
  count: z.number().int(),
});
export type CopyFollowingResponse = z.infer<typeof copyFollowingResponse>;

export const copyFollowersResponse = z.object({
  results: z.array(copyRelation),
  count: z.number().int(),
  totals: z.object({
    followers: z.number().int(),
    active: z.number().int(),
    /** Coins earned from copy fees (decimal string). */
    fees_earned: money,
  }),
});
export type CopyFollowersResponse = z.infer<typeof copyFollowersResponse>;

/** A copy receipt: what one leader fill did for this relation. */
export const copyReceipt = z.object({
  id: z.number().int(),
  symbol: z.string(),
  /** The leader's change: signed size delta and fill price. */
  leader_size_delta: z.string(),
  leader_price: z.string().nullable(),
  leader_filled_at: z.string(),
  /** The follower's signed target and what it filled. */
  target_size: z.string(),
  follower_size_delta: z.string().nullable(),
  follower_price: z.string().nullable(),
  /** Follower price vs leader price, against the follower (positive = worse), in bps. */
  slippage_bps: z.number().nullable(),
  /** Leader fill → follower fill, ms. */
  delay_ms: z.number().int().nullable(),
  status: z.enum(['copied', 'missed']),
  miss_reason: z.enum(COPY_MISS_REASONS).nullable(),
  error_kind: z.string().nullable(),
  created_at: z.string(),
});
export type CopyReceipt = z.infer<typeof copyReceipt>;

export const copyPosition = z.object({
  symbol: z.string(),
  /** Signed base-asset size (positive long). */
  size: z.string(),
  side: z.enum(['long', 'short']),
  entry_price: z.string(),
  mark_price: z.string().nullable(),
  unrealized_pnl: z.string().nullable(),
});
export type CopyPosition = z.infer<typeof copyPosition>;

/** GET /strategy-square/copy-trading/{id}/ (the follower only). */
export const copyDetailResponse = z.object({
  relation: copyRelation,
  receipts: z.array(copyReceipt),
  positions: z.array(copyPosition),
  /** Cumulative copied P&L over time (USDT). */
  pnl_series: z.array(z.object({ timestamp: z.number().int(), pnl: z.number() })),
});
export type CopyDetailResponse = z.infer<typeof copyDetailResponse>;

/** The default entry slippage cap for a symbol (BTC and ETH are tighter). */
export function defaultCopySlippagePercent(symbol: string): number {
  const base = symbol.split('/')[0]?.toUpperCase();
  return base === 'BTC' || base === 'ETH'
    ? COPY_SLIPPAGE_MAJOR_DEFAULT_PERCENT
    : COPY_SLIPPAGE_OTHER_DEFAULT_PERCENT;
}

/** Copy simulation (the copy modal's preview): periods in days and the follower's venues. */
export const COPY_SIMULATION_DAYS = [7, 30, 90] as const;
export type CopySimulationDays = (typeof COPY_SIMULATION_DAYS)[number];
export const COPY_SIMULATION_DAYS_DEFAULT: CopySimulationDays = 30;
export const COPY_SIMULATION_VENUES = ['binance', 'okx', 'paper'] as const;
export type CopySimulationVenue = (typeof COPY_SIMULATION_VENUES)[number];
/** The simulated orders an answer lists (newest kept); `trades` counts them all. */
export const COPY_SIMULATION_TRADE_LIST_MAX = 200;

export const copySimulationQuery = z.strictObject({
  copy_amount: z.coerce.number().min(COPY_AMOUNT_MIN).max(COPY_AMOUNT_MAX),
  copy_mode: z.enum(COPY_MODES).default('normal'),
  days: z
    .enum(['7', '30', '90'])
    .default('30')
    .transform((days) => Number(days) as CopySimulationDays),
  exchange: z.enum(COPY_SIMULATION_VENUES).default('paper'),
});
export type CopySimulationQuery = z.input<typeof copySimulationQuery>;

export const copySimulationTrade = z.object({
  t: z.number().int(),
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  action: z.string(),
  amount: decimal,
  price: decimal,
  leader_price: decimal,
  fee: decimal,
  size_after: decimal,
});

export const copySimulationResponse = z.object({
  strategy_id: z.number().int(),
  copy_amount: decimal,
  copy_mode: z.enum(COPY_MODES),
  days: z.number().int(),
  exchange: z.enum(COPY_SIMULATION_VENUES),
  period_start: z.string(),
  period_end: z.string(),
  /** Follower equity (copy amount + copied P&L) after each leader change; t in ms. */
  equity_curve: z.array(z.object({ t: z.number().int(), equity: z.number() })),
  final_equity: decimal,
  return_pct: z.number(),
  max_drawdown_pct: z.number(),
  /** Simulated follower orders filled. */
  trades: z.number().int(),
  /** Leader changes whose share was under the follower venue's minimum (no order). */
  skipped_orders: z.number().int(),
  /** Entries the slippage cap would have refused. */
  capped_orders: z.number().int(),
  fees: decimal,
  slippage_cost: decimal,
  leader_changes: z.number().int(),
  /** The follower's share of the leader: copy_amount / leader equity at the period's start. */
  ratio: z.number(),
  leader_equity: decimal,
  trade_list: z.array(copySimulationTrade),
  assumptions: z.array(z.string()),
  computed_at: z.string(),
});
export type CopySimulationResponse = z.infer<typeof copySimulationResponse>;
