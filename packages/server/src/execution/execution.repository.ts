import type { Database } from '../db/database.js';
import type { OrderOwner } from '../events/event-bus.types.js';
import { fillQueries } from './execution-fills.queries.js';
import { intentQueries } from './execution-intents.queries.js';
import { positionQueries } from './execution-positions.queries.js';

// The execution core's database access: the only files of the core that touch the database are
// this one and the three *.queries.ts it composes. Every query that serves many intents at once
// takes them all (one round trip per batch, not per order).

export interface IntentKey {
  readonly accountId: number;
  readonly owner: OrderOwner;
  readonly key: string;
}

export interface SymbolKey {
  readonly accountId: number;
  readonly symbol: string;
}

/**
 * Queries on a database or a transaction (the same functions, bound to either): positions and
 * accounts, intents, fills and leverages, each group in its own file.
 */
function executionQueries(db: Database) {
  return { ...positionQueries(db), ...intentQueries(db), ...fillQueries(db) };
}
export type ExecutionQueries = ReturnType<typeof executionQueries>;

export function createExecutionRepository(db: Database) {
  return {
    ...executionQueries(db),
    /** Runs `work` in one transaction with the queries bound to it. */
    transaction<T>(work: (tx: ExecutionQueries, txDb: Database) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(executionQueries(tx), tx));
    },
  };
}
export type ExecutionRepository = ReturnType<typeof createExecutionRepository>;
