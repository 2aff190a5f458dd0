import {
  COPY_AMOUNT_MAX,
  COPY_AMOUNT_MIN,
  COPY_DELETABLE_STATUSES,
  COPY_EDITABLE_STATUSES,
  COPY_ENTRY_DISTANCE_MAX_PERCENT,
  COPY_SIMULATION_DAYS,
  COPY_TRANSITIONS,
  type CopyAction,
  type CopySimulationDays,
  type CopyStatus,
} from '@quantsquare/contracts';

import {
  type NumberFieldProblem,
  type NumberFieldRule,
  numberFieldProblem,
} from '../../shared/forms/number-field';

// Pure rules of the copy screens (document 2 §4, §5, §9).

/**
 * What is wrong with a copy amount (at least 10 USDT, at most the contract's maximum, steps of
 * 0.01), by the rule it breaks; the form says that rule and keeps the value as typed.
 */
export function copyAmountProblem(value: number | null): CopyAmountProblem | null {
  if (value === null) return 'tooSmall';
  return numberFieldProblem(value, COPY_AMOUNT_RULE);
}
export type CopyAmountProblem = NumberFieldProblem;
const COPY_AMOUNT_RULE: NumberFieldRule = {
  min: COPY_AMOUNT_MIN,
  max: COPY_AMOUNT_MAX,
  decimals: 2,
};

/** The late-join distance: above 0 and at most the contract's maximum. */
export function entryDistanceProblem(value: number | null): 'range' | null {
  if (value === null || !Number.isFinite(value)) return 'range';
  return value > 0 && value <= COPY_ENTRY_DISTANCE_MAX_PERCENT ? null : 'range';
}

/**
 * An optional percent limit (the entry slippage cap, the leader-drift limit): empty is the
 * default (null); otherwise above 0 and at most `max`.
 */
export function optionalPercentProblem(value: number | null, max: number): 'range' | null {
  if (value === null) return null;
  if (!Number.isFinite(value)) return 'range';
  return value > 0 && value <= max ? null : 'range';
}

/** The max loss as the API takes it: 0 or empty is no limit (null). */
export function maxLossPayload(value: number | null): string | null {
  if (value === null || !Number.isFinite(value) || value <= 0) return null;
  return String(value);
}

/** The actions a relation offers in its status, in the order the list shows them. */
export type CopyRowAction = CopyAction | 'edit' | 'delete';

export function copyActionsFor(status: CopyStatus): CopyRowAction[] {
  const actions: CopyRowAction[] = [];
  if (COPY_TRANSITIONS.pause.includes(status)) actions.push('pause');
  if (COPY_TRANSITIONS.resume.includes(status)) actions.push('resume');
  if (COPY_EDITABLE_STATUSES.includes(status)) actions.push('edit');
  if (COPY_TRANSITIONS.stop.includes(status)) actions.push('stop');
  if (COPY_DELETABLE_STATUSES.includes(status)) actions.push('delete');
  return actions;
}

/** antd Tag colour of a relation status. */
export function copyStatusColor(status: CopyStatus): string {
  switch (status) {
    case 'active':
      return 'success';
    case 'paused':
      return 'warning';
    case 'stopped':
      return 'default';
  }
}

/** A decimal string as a number ('—' safe: NaN becomes null). */
export function toNumber(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

const DAY_MS = 86_400_000;

/** The shortest simulation period that covers a copy's life since `createdAt` (90 days at most). */
export function comparisonDays(createdAt: string, nowMs: number): CopySimulationDays {
  const started = Date.parse(createdAt);
  const ageDays = Number.isFinite(started) ? (nowMs - started) / DAY_MS : 0;
  return COPY_SIMULATION_DAYS.find((days) => days >= ageDays) ?? 90;
}
