// User strategies (issue 26 §1): rule sets a user builds, checked and compiled by the engine.
// The trading service (backtests, the chart, the catalogue) and the bots reach them only here.
import {
  CUSTOM_STRATEGY_ID_OFFSET,
  customStrategyId,
  customStrategyType,
  FIELD_ERROR_CODES,
  type StrategyInfo,
  USER_STRATEGY_MAX_COUNT,
  type UserStrategy,
  type UserStrategyListAnswer,
  type UserStrategyPayload,
} from '@quantsquare/contracts';
import {
  type CompiledStrategy,
  compileRuleStrategy,
  type RuleIssue,
  type StrategyProtections,
  validateRuleSet,
} from '@quantsquare/engine';
import Decimal from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { Conflict, FieldErrorList, NotFound, ValidationFailed } from '../../common/errors.js';
import type { UserStrategyRow } from '../../db/schema/index.js';
import type {
  UserStrategiesRepository,
  UserStrategyChanges,
} from './user-strategies.repository.js';

export const USER_STRATEGY_MESSAGES = {
  notFound: 'Strategy not found',
  tooMany: `At most ${USER_STRATEGY_MAX_COUNT} strategies per user`,
  inUse: 'A bot runs this strategy: delete the bot first',
  unknown: 'Unknown strategy',
} as const;

export const USER_STRATEGY_CODES = {
  tooMany: 'too_many_strategies',
  inUse: 'strategy_in_use',
} as const;

const toNumber = (value: string | null) => (value === null ? null : Number(value));
const toPercent = (value: number | null | undefined) =>
  value === null || value === undefined ? null : new Decimal(value).toString();

function present(row: UserStrategyRow): UserStrategy {
  return {
    id: row.id,
    type: customStrategyType(row.id),
    name: row.name,
    description: row.description,
    rules: row.rules,
    stop_loss_pct: toNumber(row.stopLossPct),
    take_profit_pct: toNumber(row.takeProfitPct),
    trailing_stop_pct: toNumber(row.trailingStopPct),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function protectionsOf(row: UserStrategyRow): StrategyProtections {
  return {
    stopLossPercent: toNumber(row.stopLossPct),
    takeProfitPercent: toNumber(row.takeProfitPct),
    trailingStopPercent: toNumber(row.trailingStopPct),
  };
}

/** The engine's rule issues as field errors under `rules` (`rules.entry_long.all.0.op`). */
function ruleErrors(issues: readonly RuleIssue[]): ValidationFailed {
  const errors = new FieldErrorList();
  for (const issue of issues) {
    errors.add(issue.path === '' ? 'rules' : `rules.${issue.path}`, issue.message, issue.code);
  }
  return errors.failure('Invalid rules');
}

/** A stored rule set compiled for running; stored ones passed the checks when written. */
function compileRow(row: UserStrategyRow): CompiledStrategy {
  const compiled = compileRuleStrategy(customStrategyType(row.id), row.rules, protectionsOf(row));
  if (!compiled.ok) throw new RangeError(`stored strategy ${row.id} no longer validates`);
  return compiled.strategy;
}

export interface UserStrategiesDeps {
  readonly repo: UserStrategiesRepository;
  readonly clock: Clock;
}

/** A payload's changes, its rules validated. */
function changesOf(payload: UserStrategyPayload): UserStrategyChanges {
  const validation = validateRuleSet(payload.rules);
  if (!validation.ok) throw ruleErrors(validation.issues);
  return {
    name: payload.name,
    description: payload.description,
    rules: validation.rules,
    stopLossPct: toPercent(payload.stop_loss_pct),
    takeProfitPct: toPercent(payload.take_profit_pct),
    trailingStopPct: toPercent(payload.trailing_stop_pct),
  };
}

async function owned(
  repo: UserStrategiesDeps['repo'],
  userId: number,
  id: number,
): Promise<UserStrategyRow> {
  const row = await repo.findOwned(userId, id);
  if (!row) throw new NotFound(USER_STRATEGY_MESSAGES.notFound);
  return row;
}

/** `custom:<id>` owned by `userId` (a visitor owns none), or undefined. */
async function ownedOfType(
  repo: UserStrategiesDeps['repo'],
  userId: number | undefined,
  type: string,
): Promise<UserStrategyRow | undefined> {
  const id = customStrategyId(type);
  if (id === null || userId === undefined) return undefined;
  return repo.findOwned(userId, id);
}

export function createUserStrategiesService(deps: UserStrategiesDeps) {
  const { repo, clock } = deps;

  return {
    async list(userId: number): Promise<UserStrategyListAnswer> {
      const results = (await repo.listForUser(userId)).map(present);
      return { results, count: results.length };
    },

    async get(userId: number, id: number): Promise<UserStrategy> {
      return present(await owned(repo, userId, id));
    },

    async create(userId: number, payload: UserStrategyPayload): Promise<UserStrategy> {
      const changes = changesOf(payload);
      if ((await repo.countForUser(userId)) >= USER_STRATEGY_MAX_COUNT) {
        throw new Conflict(USER_STRATEGY_MESSAGES.tooMany, USER_STRATEGY_CODES.tooMany);
      }
      const now = clock.now();
      return present(await repo.insert({ userId, ...changes, createdAt: now, updatedAt: now }));
    },

    async update(userId: number, id: number, payload: UserStrategyPayload): Promise<UserStrategy> {
      const changes = changesOf(payload);
      const row = await repo.update(userId, id, changes, clock.now());
      if (!row) throw new NotFound(USER_STRATEGY_MESSAGES.notFound);
      return present(row);
    },

    async remove(userId: number, id: number): Promise<void> {
      await owned(repo, userId, id);
      if (await repo.isUsedByBot(customStrategyType(id))) {
        throw new Conflict(USER_STRATEGY_MESSAGES.inUse, USER_STRATEGY_CODES.inUse);
      }
      await repo.delete(userId, id);
    },

    /** The owner's strategies as entries of GET /trading/strategies/. */
    async catalogFor(userId: number): Promise<StrategyInfo[]> {
      return (await repo.listForUser(userId)).map((row) => ({
        id: CUSTOM_STRATEGY_ID_OFFSET + row.id,
        type: customStrategyType(row.id),
        name: row.name,
        description: row.description,
        parameters: {},
        parameter_specs: [],
      }));
    },

    /**
     * `custom:<id>` compiled for `userId`, its owner; anyone else (and a visitor) gets the
     * unknown-strategy field error a wrong built-in type gets, so ids of others are not probed.
     */
    async compiledFor(userId: number | undefined, type: string): Promise<CompiledStrategy> {
      const row = await ownedOfType(repo, userId, type);
      if (!row) {
        throw ValidationFailed.field(
          'strategy_type',
          USER_STRATEGY_MESSAGES.unknown,
          FIELD_ERROR_CODES.unknownStrategy,
        );
      }
      return compileRow(row);
    },

    /**
     * `custom:<id>` as plain data (rules in normal form, protections) for its owner, so a worker
     * thread can compile it; the unknown-strategy field error for anyone else.
     */
    async definitionFor(userId: number, type: string) {
      const row = await ownedOfType(repo, userId, type);
      if (!row) {
        throw ValidationFailed.field(
          'strategy_type',
          USER_STRATEGY_MESSAGES.unknown,
          FIELD_ERROR_CODES.unknownStrategy,
        );
      }
      return {
        type: customStrategyType(row.id),
        rules: row.rules,
        protections: protectionsOf(row),
      };
    },

    /**
     * `custom:<id>` as its owner's published page shows it (name, rules, protections), or
     * undefined when `userId` does not own it (or it is gone).
     */
    async publishedFor(userId: number, type: string) {
      const row = await ownedOfType(repo, userId, type);
      return row && present(row);
    },

    /** The owner's strategy behind a catalogue id (bot form), or undefined. */
    async ownedByCatalogId(userId: number, catalogId: number) {
      const id = catalogId - CUSTOM_STRATEGY_ID_OFFSET;
      if (id < 1) return undefined;
      const row = await repo.findOwned(userId, id);
      return row && { type: customStrategyType(row.id), name: row.name };
    },

    compiledForBot: (type: string) => compiledForBot(repo, type),
  };
}

/**
 * A bot's stored strategy `custom:<id>`, whoever owns it now (null when it is gone or not a
 * custom type). The bot engine runs it through the same compiled strategy as a backtest.
 */
export async function compiledForBot(
  repo: Pick<UserStrategiesRepository, 'find'>,
  type: string,
): Promise<CompiledStrategy | null> {
  const id = customStrategyId(type);
  if (id === null) return null;
  const row = await repo.find(id);
  return row ? compileRow(row) : null;
}

export type UserStrategiesService = ReturnType<typeof createUserStrategiesService>;
