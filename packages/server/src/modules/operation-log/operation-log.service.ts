import type {
  OperationLogEntry,
  OperationLogEvent,
  OperationLogList,
  OperationLogQuery,
  OperationLogType,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import type { OperationLogRow } from '../../db/schema/index.js';
import {
  createOperationLogRepository,
  type OperationLogRepository,
} from './operation-log.repository.js';

/** One entry of a user's operation log, as bots, accounts and the bot engine write it. */
export interface OperationLogRecord {
  readonly userId: number;
  readonly botId?: number | null;
  readonly type: OperationLogType;
  readonly botSymbol?: string | null;
  /** null: an entry told by its message alone (copy trading's, a webhook signal's failure). */
  readonly event: OperationLogEvent | null;
  readonly message: string;
  /** Structured facts (never secrets); closing trades carry `pnl`. */
  readonly details?: Record<string, unknown>;
}

/** The writer the other modules receive: stable and small on purpose. */
export interface OperationLogWriter {
  record(entry: OperationLogRecord): Promise<void>;
}

export function toOperationLogEntry(row: OperationLogRow): OperationLogEntry {
  return {
    id: row.id,
    type: row.type,
    bot_id: row.botId,
    bot_symbol: row.botSymbol,
    event: row.event,
    message: row.message,
    details: row.details,
    created_at: row.createdAt.toISOString(),
  };
}

/** Writes entries stamped with the clock, and reads a user's own entries back. */
export function createOperationLog(deps: { repo: OperationLogRepository; clock: Clock }) {
  const { repo, clock } = deps;
  return {
    async record(entry: OperationLogRecord): Promise<void> {
      await repo.insert({
        userId: entry.userId,
        botId: entry.botId ?? null,
        type: entry.type,
        botSymbol: entry.botSymbol ?? null,
        event: entry.event,
        message: entry.message,
        details: entry.details ?? {},
        createdAt: clock.now(),
      });
    },

    async list(userId: number, query: OperationLogQuery): Promise<OperationLogList> {
      const { rows, total } = await repo.page(
        {
          userId,
          ...(query.type !== undefined ? { type: query.type } : {}),
          ...(query.bot !== undefined ? { botId: query.bot } : {}),
          ...(query.since !== undefined ? { since: new Date(query.since) } : {}),
        },
        { offset: (query.page - 1) * query.page_size, limit: query.page_size },
      );
      return {
        results: rows.map(toOperationLogEntry),
        count: total,
        page: query.page,
        page_size: query.page_size,
      };
    },
  };
}
export type OperationLogService = ReturnType<typeof createOperationLog>;

/** The operation log bound to `db` — a caller's transaction, so its entry commits with the action. */
export function operationLogOn(db: Database, clock: Clock): OperationLogService {
  return createOperationLog({ repo: createOperationLogRepository(db), clock });
}
