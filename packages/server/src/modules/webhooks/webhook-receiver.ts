import { createHash } from 'node:crypto';
import {
  ERROR_CODES,
  WEBHOOK_DEDUPE_WINDOW_SECONDS,
  WEBHOOK_ERROR_CODES,
  WEBHOOK_MESSAGES,
  WEBHOOK_RAW_BODY_KEPT_CHARS,
  WEBHOOK_SIGNALS_PER_MINUTE,
  WEBHOOK_UNKNOWN_KEY_LIMIT_PER_MINUTE,
  type WebhookRefuseReason,
} from '@quantsquare/contracts';
import { createBatcher } from '../../common/batcher.js';
import type { Clock } from '../../common/clock.js';
import type { ServiceLogger } from '../../common/logger.js';
import { createKeyedWindows } from '../../common/rate-window.js';
import type { NewWebhookSignalRow, WebhookConfigRow } from '../../db/schema/index.js';
import {
  checkAlert,
  EMPTY_ALERT,
  type ParsedAlert,
  parseAlertBody,
  storable,
} from './webhook-alert.js';
import type { TrailLog } from './webhook-executor.js';
import { hashWebhookKey, isKeyShaped, sameHash } from './webhook-keys.js';
import type { WebhooksRepository } from './webhooks.repository.js';
import { normaliseIp } from './webhooks.service.js';

// POST /api/webhook-trading/hook/{key}/ — no login, no headers from TradingView. Every body is
// answered 202 (accepted, executed in the background), 400 (refused, recorded), 404 (unknown
// key) or 429 (rate limited); never a 5xx.

export interface HookInput {
  readonly key: string;
  readonly body: Buffer | string | undefined;
  readonly ip: string;
  /** The body was beyond what the server reads at all (refused unread). */
  readonly oversized?: boolean;
}

export interface HookAnswer {
  readonly status: 202 | 400 | 404 | 429;
  readonly body: Record<string, unknown>;
}

/**
 * Per key (source address, configuration): at most `limit` hits in any minute, in sliding
 * windows (common/rate-window.ts), bounded in the number of keys kept.
 */
export function createWindowCounter(limit: number, clock: () => number, maxKeys = 100_000) {
  const windows = createKeyedWindows<string>([{ limit, windowMs: 60_000 }], maxKeys);
  return {
    /** Counts a hit. */
    hit(key: string): void {
      const now = clock();
      windows.of(key, now).record(now);
    },
    /** Seconds to wait before the key may hit again (0: it may now). */
    blocked(key: string): number {
      const now = clock();
      const waitMs = windows.of(key, now).waitMs(now);
      return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
    },
  };
}

const rateLimited = (retryAfter: number): HookAnswer => ({
  status: 429,
  body: {
    error: WEBHOOK_MESSAGES.rateLimited,
    code: ERROR_CODES.rateLimited,
    retry_after: retryAfter,
  },
});

const notFound: HookAnswer = {
  status: 404,
  body: { error: WEBHOOK_MESSAGES.unknownKey, code: WEBHOOK_ERROR_CODES.unknownKey },
};

/** A signal as it arrived, before it is judged: its configuration, address and first row. */
interface Arrival {
  readonly config: WebhookConfigRow;
  readonly ip: string;
  readonly receivedAt: Date;
  readonly base: NewWebhookSignalRow;
}

/** The signal's row as received: who sent what, when, and its hash. */
function signalBase(
  config: WebhookConfigRow,
  ip: string,
  receivedAt: Date,
  parsedBody: { readonly text: string },
): NewWebhookSignalRow {
  const text = storable(parsedBody.text);
  return {
    configId: config.id,
    userId: config.userId,
    status: 'received',
    sourceIp: ip,
    rawBody: text.slice(0, WEBHOOK_RAW_BODY_KEPT_CHARS),
    rawBodyTruncated: text.length > WEBHOOK_RAW_BODY_KEPT_CHARS,
    bodyHash: createHash('sha256').update(parsedBody.text).digest('hex'),
    receivedAt,
    steps: [{ step: 'received', at: receivedAt.toISOString(), detail: `from ${ip}` }],
  };
}

/** The row with the alert's fields. */
const withAlert = (base: NewWebhookSignalRow, alert: ParsedAlert): NewWebhookSignalRow => ({
  ...base,
  action: alert.action,
  symbol: alert.symbol,
  amount: alert.amount,
  price: alert.price,
  externalId: alert.externalId,
  signalTime: alert.signalTime,
});

/** A refused signal: stored with its reason, logged, and answered 400 (or 429). */
async function refuse(
  io: Pick<ReceiverDeps, 'repo' | 'trail'>,
  arrival: Arrival,
  reason: WebhookRefuseReason,
  alert: ParsedAlert,
  status: 400 | 429 = 400,
): Promise<HookAnswer> {
  const { config, ip, receivedAt, base } = arrival;
  const message = WEBHOOK_MESSAGES.refused[reason];
  const row = await io.repo.insertSignal({
    ...withAlert(base, alert),
    status: 'refused',
    reason,
    message,
    steps: [
      ...(base.steps ?? []),
      { step: 'refused', at: receivedAt.toISOString(), detail: message },
    ],
    totalLatencyMs: 0,
    finishedAt: receivedAt,
  });
  await io.trail({
    config,
    signalId: row.id,
    level: 'warning',
    event: 'signal_refused',
    message: `Signal #${row.id} refused: ${message}`,
    sourceIp: ip,
  });
  if (status === 429) return rateLimited(60);
  return {
    status: 400,
    body: {
      error: message,
      code: WEBHOOK_ERROR_CODES.signalRefused,
      reason,
      signal_id: row.id,
    },
  };
}

/** An accepted signal: stored once (a repeat answers the first), announced and acknowledged. */
async function accept(
  io: Pick<ReceiverDeps, 'repo' | 'trail' | 'announce'> & {
    inserts: {
      run(
        row: NewWebhookSignalRow & { dedupeKey: string },
      ): ReturnType<WebhooksRepository['insertUnlessRepeated']>;
    };
    perConfig: { hit(key: string): void };
    now: Date;
  },
  arrival: Arrival,
  alert: ParsedAlert,
): Promise<HookAnswer> {
  const { config, ip, receivedAt, base } = arrival;
  const accepted: NewWebhookSignalRow = {
    ...withAlert(base, alert),
    status: 'validated',
    steps: [
      ...(base.steps ?? []),
      {
        step: 'validated',
        at: io.now.toISOString(),
        detail: `${alert.action} ${alert.symbol} ${alert.amount} USDT`,
      },
    ],
  };
  const { row, duplicate } = alert.externalId
    ? await io.inserts.run({ ...accepted, dedupeKey: `id:${alert.externalId}` })
    : await io.repo.insertUnlessSameBody(
        { ...accepted, dedupeKey: `body:${base.bodyHash}:${receivedAt.getTime()}` },
        WEBHOOK_DEDUPE_WINDOW_SECONDS * 1000,
      );
  // The acknowledgement does not wait for these log lines (the trail catches its own failures).
  if (duplicate) {
    void io.trail({
      config,
      signalId: row.id,
      level: 'info',
      event: 'signal_duplicate',
      message: `A repeat of signal #${row.id} (nothing traded again)`,
      sourceIp: ip,
    });
  } else {
    io.perConfig.hit(String(config.id));
    io.announce(row.id, config.id);
    void io.trail({
      config,
      signalId: row.id,
      level: 'info',
      event: 'signal_received',
      message: `Signal #${row.id} ${alert.action} ${alert.symbol} accepted`,
      sourceIp: ip,
    });
  }
  return {
    status: 202,
    body: {
      signal_id: row.id,
      status: row.status,
      duplicate,
      message: duplicate ? WEBHOOK_MESSAGES.duplicate : WEBHOOK_MESSAGES.accepted,
    },
  };
}

/** What the receiver works with. */
export interface ReceiverDeps {
  readonly repo: WebhooksRepository;
  readonly clock: Clock;
  /**
   * Announces a signal just stored (validated): the process holding its configuration runs it,
   * here or in another process. Must not wait on the execution (called after the commit, not
   * awaited).
   */
  readonly announce: (signalId: number, configId: number) => void;
  readonly trail: TrailLog;
  readonly log: ServiceLogger;
  /** Real time for the rate windows (tests may pass a fake). */
  readonly now?: () => number;
  /** New signals per configuration per minute (default WEBHOOK_SIGNALS_PER_MINUTE). */
  readonly signalsPerMinute?: number;
}

export function createWebhookReceiver(deps: ReceiverDeps) {
  const { repo, clock } = deps;
  const realNow = deps.now ?? Date.now;
  const unknownKeys = createWindowCounter(WEBHOOK_UNKNOWN_KEY_LIMIT_PER_MINUTE, realNow);
  const perConfig = createWindowCounter(
    deps.signalsPerMinute ?? WEBHOOK_SIGNALS_PER_MINUTE,
    realNow,
  );

  // Concurrent alerts share their round trips: the key lookups of a moment are one query, and
  // so are the inserts of signals with an id (a lone alert still goes at once).
  const lookups = createBatcher((hashes: readonly string[]) => repo.configsByKeyHashes(hashes), {
    maxSize: 200,
  });
  type Keyed = NewWebhookSignalRow & { dedupeKey: string };
  type Inserted = Awaited<ReturnType<WebhooksRepository['insertUnlessRepeated']>>;
  const batchedInserts = createBatcher(
    async (rows: readonly Keyed[]): Promise<(Inserted | { error: unknown })[]> => {
      try {
        return await repo.insertManyUnlessRepeated(rows);
      } catch {
        // One row the database refuses must not fail the others of its batch: one by one.
        return Promise.all(
          rows.map((row) => repo.insertUnlessRepeated(row).catch((error: unknown) => ({ error }))),
        );
      }
    },
    { maxSize: 200 },
  );
  const inserts = {
    async run(row: Keyed): Promise<Inserted> {
      const result = await batchedInserts.run(row);
      if ('error' in result) throw result.error;
      return result;
    },
  };

  async function receive(input: HookInput): Promise<HookAnswer> {
    const ip = normaliseIp(input.ip) ?? storable(input.ip.slice(0, 64));
    const key = input.key.toLowerCase();
    const hash = isKeyShaped(key) ? hashWebhookKey(key) : null;
    // A valid key is judged on its own: TradingView posts every user's alerts from a few shared
    // addresses, so one user's wrong keys must never hold back another user's alerts. Only
    // unknown keys count against (and are refused by) the per-address limit.
    const found = hash ? await lookups.run(hash) : undefined;
    if (!found || !hash || !sameHash(found.config.keyHash, hash)) {
      const blocked = unknownKeys.blocked(ip);
      if (blocked > 0) return rateLimited(blocked);
      unknownKeys.hit(ip);
      await deps.trail({
        config: null,
        signalId: null,
        level: 'warning',
        event: 'unknown_key',
        message: 'A request to an unknown webhook URL',
        sourceIp: ip,
      });
      return notFound;
    }
    const { config, account } = found;
    const receivedAt = clock.now();
    const parsedBody = input.oversized
      ? { ok: false as const, reason: 'payload_too_large' as const, text: '' }
      : parseAlertBody(input.body);
    const arrival: Arrival = {
      config,
      ip,
      receivedAt,
      base: signalBase(config, ip, receivedAt, parsedBody),
    };
    const refused = (reason: WebhookRefuseReason, alert: ParsedAlert, status: 400 | 429 = 400) =>
      refuse(deps, arrival, reason, alert, status);

    if (config.ipAllowlist.length > 0 && !config.ipAllowlist.includes(ip)) {
      return refused('ip_not_allowed', EMPTY_ALERT);
    }
    if (!parsedBody.ok) return refused(parsedBody.reason, EMPTY_ALERT);
    const check = checkAlert(parsedBody.body, config, receivedAt);
    if (!check.ok) return refused(check.reason, check.alert);
    if (!config.enabled) return refused('disabled', check.alert);
    if (!account.isActive) return refused('account_inactive', check.alert);
    // Repeats are answered without counting: only new signals use the configuration's rate.
    if (perConfig.blocked(String(config.id)) > 0) return refused('rate_limited', check.alert, 429);
    return accept({ ...deps, inserts, perConfig, now: clock.now() }, arrival, check.alert);
  }

  return {
    /** Never throws: a failure of ours is logged and answered as a refused 400. */
    async receive(input: HookInput): Promise<HookAnswer> {
      try {
        return await receive(input);
      } catch (error) {
        deps.log.error({ err: error }, 'webhook receiver failed');
        return {
          status: 400,
          body: {
            error: WEBHOOK_MESSAGES.refused.invalid_json,
            code: WEBHOOK_ERROR_CODES.signalRefused,
            reason: 'invalid_json',
            signal_id: null,
          },
        };
      }
    },
  };
}
export type WebhookReceiver = ReturnType<typeof createWebhookReceiver>;
