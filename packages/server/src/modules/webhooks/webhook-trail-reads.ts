import {
  WEBHOOK_SIGNAL_STATUSES,
  type WebhookExecutionListResponse,
  type WebhookLogListResponse,
  type WebhookLogSignal,
  type WebhookSignal,
  type WebhookSignalListResponse,
  type WebhookStatsResponse,
  type WebhookStatsWindow,
  type webhookExecutionsQuery,
  type webhookLogsQuery,
  type webhookSignalsQuery,
  type webhookStatsQuery,
} from '@quantsquare/contracts';
import type { z } from 'zod';
import type { Clock } from '../../common/clock.js';
import { NotFound } from '../../common/errors.js';
import { presentExecution, presentSignal } from './webhook-present.js';
import type { WebhooksRepository } from './webhooks.repository.js';

const parseFilter = <T extends { since?: string | undefined; until?: string | undefined }>(
  q: T,
) => ({
  since: q.since ? new Date(q.since) : undefined,
  until: q.until ? new Date(q.until) : undefined,
});

async function statsWindow(
  repo: WebhooksRepository,
  userId: number,
  configId: number | undefined,
  since: Date | undefined,
) {
  const raw = await repo.stats(userId, configId, since);
  const byStatus = Object.fromEntries(
    WEBHOOK_SIGNAL_STATUSES.map((s) => [s, 0]),
  ) as WebhookStatsWindow['by_status'];
  let total = 0;
  for (const { status, n } of raw.byStatus) {
    if (Object.hasOwn(byStatus, status)) byStatus[status] = n;
    total += n;
  }
  const done = byStatus.filled + byStatus.failed;
  return {
    total,
    by_status: byStatus,
    success_rate: done === 0 ? null : Math.round((byStatus.filled / done) * 10000) / 100,
    median_latency_ms: raw.median === null ? null : Math.round(raw.median),
    p99_latency_ms: raw.p99 === null ? null : Math.round(raw.p99),
  };
}

// The user's webhook trail as the API lists it: signals, executions, logs (with their signal and
// its last order) and the statistics of the signals' outcomes and latencies.
interface TrailReadsDeps {
  readonly repo: WebhooksRepository;
  readonly clock: Clock;
}

/** Signals and executions, by page and one by one. */
function signalReads(deps: TrailReadsDeps) {
  const { repo } = deps;

  return {
    async signals(
      userId: number,
      query: z.output<typeof webhookSignalsQuery>,
    ): Promise<WebhookSignalListResponse> {
      const { rows, total } = await repo.signalsPage({
        userId,
        configId: query.config,
        status: query.status,
        ...parseFilter(query),
        page: query.page,
        pageSize: query.page_size,
      });
      const executions = await repo.executionsOfSignals(rows.map((r) => r.signal.id));
      return {
        results: rows.map((r) =>
          presentSignal(
            r.signal,
            r.configName,
            executions.filter((e) => e.signalId === r.signal.id),
          ),
        ),
        count: total,
        page: query.page,
        page_size: query.page_size,
      };
    },

    async signal(userId: number, id: number): Promise<WebhookSignal> {
      const row = await repo.ownedSignal(userId, id);
      if (!row) throw new NotFound('Signal not found');
      return presentSignal(row.signal, row.configName, await repo.executionsOfSignals([id]));
    },

    async executions(
      userId: number,
      query: z.output<typeof webhookExecutionsQuery>,
    ): Promise<WebhookExecutionListResponse> {
      const { rows, total } = await repo.executionsPage({
        userId,
        configId: query.config,
        status: query.status,
        ...parseFilter(query),
        page: query.page,
        pageSize: query.page_size,
      });
      return {
        results: rows.map((r) => presentExecution(r.execution, r.configName)),
        count: total,
        page: query.page,
        page_size: query.page_size,
      };
    },
  };
}

/** The log (each line with its signal and its last order) and the statistics. */
function logAndStatsReads(deps: TrailReadsDeps) {
  const { repo, clock } = deps;

  return {
    async logs(
      userId: number,
      query: z.output<typeof webhookLogsQuery>,
    ): Promise<WebhookLogListResponse> {
      const { rows, total } = await repo.logsPage({
        userId,
        configId: query.config,
        status: query.level ?? query.status,
        event: query.event,
        ...parseFilter(query),
        page: query.page,
        pageSize: query.page_size,
      });
      const signalIds = [
        ...new Set(rows.flatMap((r) => (r.signalId === null ? [] : [r.signalId]))),
      ];
      const [signals, executions] = await Promise.all([
        repo.signalsByIds(signalIds),
        repo.executionsOfSignals(signalIds),
      ]);
      const signalById = new Map(signals.map((s) => [s.id, s]));
      // Executions come in id order: the last one of a signal wins.
      const lastOrder = new Map(executions.map((e) => [e.signalId, e]));
      const describe = (id: number | null): WebhookLogSignal | null => {
        const signal = id === null ? undefined : signalById.get(id);
        if (!signal) return null;
        const order = lastOrder.get(signal.id);
        return {
          action: signal.action,
          symbol: signal.symbol,
          amount: signal.amount,
          status: signal.status,
          reason: signal.reason,
          error_kind: (signal.errorKind as WebhookLogSignal['error_kind']) ?? null,
          order: order
            ? {
                action: order.action,
                quantity: order.quantity,
                filled_quantity: order.filledQuantity,
                price: order.price,
                leverage: order.leverage,
                exchange_order_id: order.exchangeOrderId,
              }
            : null,
        };
      };
      return {
        results: rows.map((r) => ({
          id: r.id,
          config_id: r.configId,
          config_name: r.configName,
          signal_id: r.signalId,
          level: r.level,
          event: r.event,
          message: r.message,
          source_ip: r.sourceIp,
          created_at: r.createdAt.toISOString(),
          signal: describe(r.signalId),
        })),
        count: total,
        page: query.page,
        page_size: query.page_size,
      };
    },

    async stats(
      userId: number,
      query: z.output<typeof webhookStatsQuery>,
    ): Promise<WebhookStatsResponse> {
      const since = new Date(clock.now().getTime() - 24 * 60 * 60 * 1000);
      const configs = await repo.ownedConfigs(userId);
      return {
        last_24h: await statsWindow(repo, userId, query.config, since),
        total: await statsWindow(repo, userId, query.config, undefined),
        configs: { total: configs.length, enabled: configs.filter((c) => c.config.enabled).length },
      };
    },
  };
}

export function createWebhookTrailReads(deps: TrailReadsDeps) {
  return {
    ...signalReads(deps),
    ...logAndStatsReads(deps),
  };
}
