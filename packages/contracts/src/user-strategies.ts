// Rule-based strategies a user builds without code (issue 26 §1). The shape of a rule set is
// written here once; its deep checks (depth, leaf count, operand fields) are the engine's
// `validateRuleSet`, which answers the field codes below.
import { z } from 'zod';

export const RULE_INDICATORS = [
  'sma',
  'ema',
  'rsi',
  'macd',
  'macd_signal',
  'macd_hist',
  'bb_upper',
  'bb_mid',
  'bb_lower',
  'atr',
] as const;
export type RuleIndicator = (typeof RULE_INDICATORS)[number];

export const RULE_PRICE_FIELDS = ['close', 'open', 'high', 'low', 'volume'] as const;
export type RulePriceField = (typeof RULE_PRICE_FIELDS)[number];

export const RULE_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'crosses_above', 'crosses_below'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export const RULE_SLOTS = ['entry_long', 'exit_long', 'entry_short', 'exit_short'] as const;
export type RuleSlot = (typeof RULE_SLOTS)[number];

export const RULE_LIMITS = {
  /** Groups inside groups: a slot's top group is depth 1. */
  maxDepth: 4,
  maxLeaves: 20,
  minPeriod: 1,
  maxPeriod: 500,
  maxOffset: 100,
  minStdDev: 0.5,
  maxStdDev: 5,
} as const;

/** Default extra settings of the indicators that take more than `period`. */
export const RULE_INDICATOR_DEFAULTS = {
  macd: { fast_period: 12, slow_period: 26, signal_period: 9 },
  bollinger: { std_dev: 2 },
} as const;

export type RuleOperand =
  | {
      readonly indicator: RuleIndicator;
      /** sma/ema/rsi/atr/bb_*: the window; macd*: ignored in favour of fast/slow/signal. */
      readonly period?: number;
      readonly fast_period?: number;
      readonly slow_period?: number;
      readonly signal_period?: number;
      readonly std_dev?: number;
      readonly offset?: number;
    }
  | { readonly price: RulePriceField; readonly offset?: number }
  | { readonly value: number; readonly offset?: number };

export interface RuleLeaf {
  readonly left: RuleOperand;
  readonly op: RuleOperator;
  readonly right: RuleOperand;
}
export type RuleCondition =
  | RuleLeaf
  | { readonly all: readonly RuleCondition[] }
  | { readonly any: readonly RuleCondition[] };

export type RuleSet = Readonly<Record<RuleSlot, RuleCondition | null>>;

/** Field codes of a refused rule set (beside the common FIELD_ERROR_CODES). */
export const RULE_ERROR_CODES = {
  /** Groups nested deeper than RULE_LIMITS.maxDepth. */
  tooDeep: 'too_deep',
  /** More than RULE_LIMITS.maxLeaves comparisons in the whole rule set. */
  tooManyLeaves: 'too_many_leaves',
  /** An `all`/`any` group without conditions. */
  emptyGroup: 'empty_group',
  /** No entry_long and no entry_short: the strategy could never open a position. */
  noEntry: 'no_entry',
  /** An operand that is not an indicator, a price or a value. */
  invalidOperand: 'invalid_operand',
  /** Both sides of a comparison are plain values. */
  constantComparison: 'constant_comparison',
} as const;

/** Errors of the user-strategies routes and of choosing a custom strategy. */
export const USER_STRATEGY_ERROR_CODES = {
  /** Running a custom strategy in a bot needs an active VIP membership. */
  vipRequired: 'custom_strategy_vip_required',
} as const;

export const CUSTOM_STRATEGY_PREFIX = 'custom:';
export const USER_STRATEGY_NAME_MAX_LENGTH = 60;
export const USER_STRATEGY_DESCRIPTION_MAX_LENGTH = 500;
/** Strategies one user may keep. */
export const USER_STRATEGY_MAX_COUNT = 50;

/** `custom:<id>` for a user strategy id. */
export function customStrategyType(id: number): string {
  return `${CUSTOM_STRATEGY_PREFIX}${id}`;
}

/** The user strategy id of `custom:<id>`, or null for any other type. */
export function customStrategyId(type: string): number | null {
  if (!type.startsWith(CUSTOM_STRATEGY_PREFIX)) return null;
  const digits = type.slice(CUSTOM_STRATEGY_PREFIX.length);
  if (!/^[1-9][0-9]{0,9}$/.test(digits)) return null;
  const id = Number(digits);
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? id : null;
}

const percent = (max: number) => z.number().min(0.1).max(max).nullable().optional();

/**
 * Create and replace payloads. `rules` is checked here for its outer shape only; the engine's
 * `validateRuleSet` checks every condition and answers per-field codes.
 */
export const userStrategyPayload = z.strictObject({
  name: z.string().trim().min(1).max(USER_STRATEGY_NAME_MAX_LENGTH),
  description: z.string().trim().max(USER_STRATEGY_DESCRIPTION_MAX_LENGTH).default(''),
  rules: z.record(z.string(), z.unknown()),
  stop_loss_pct: percent(50),
  take_profit_pct: percent(100),
  trailing_stop_pct: percent(50),
});
export type UserStrategyPayload = z.infer<typeof userStrategyPayload>;

export const userStrategyAnswer = z.object({
  id: z.number().int(),
  /** `custom:<id>`: the strategy_type of backtests and bots. */
  type: z.string(),
  name: z.string(),
  description: z.string(),
  /** The rule set in normal form (every operand an object, defaults filled). */
  rules: z.record(z.string(), z.unknown()),
  stop_loss_pct: z.number().nullable(),
  take_profit_pct: z.number().nullable(),
  trailing_stop_pct: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserStrategy = Omit<z.infer<typeof userStrategyAnswer>, 'rules'> & {
  readonly rules: RuleSet;
};

export const userStrategyListAnswer = z.object({
  results: z.array(userStrategyAnswer),
  count: z.number().int(),
});
export interface UserStrategyListAnswer {
  readonly results: UserStrategy[];
  readonly count: number;
}

/**
 * In GET /trading/strategies/ and the bot form a custom strategy's id is this offset plus its
 * own id, so built-in ids (1..n) and custom ones never meet and `strategy: id` serves both.
 */
export const CUSTOM_STRATEGY_ID_OFFSET = 1_000_000;
