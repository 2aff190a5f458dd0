import { isIP } from 'node:net';
import {
  FIELD_ERROR_CODES,
  WEBHOOK_CONFIGS_MAX,
  WEBHOOK_ERROR_CODES,
  WEBHOOK_FIELD_ERROR_CODES,
  WEBHOOK_MESSAGES,
  WEBHOOK_SIGNAL_STATUSES,
  type WebhookBatchActionRequest,
  type WebhookBatchActionResponse,
  type WebhookConfig,
  type WebhookExecution,
  type WebhookExecutionListResponse,
  type WebhookLogListResponse,
  type WebhookLogSignal,
  type WebhookPosition,
  type WebhookSignal,
  type WebhookSignalListResponse,
  type WebhookStatsResponse,
  type WebhookStatsWindow,
  type WebhookTestResponse,
  type webhookConfigCreateRequest,
  type webhookConfigUpdateRequest,
  type webhookExecutionsQuery,
  type webhookLogsQuery,
  type webhookSignalsQuery,
  type webhookStatsQuery,
} from '@quantsquare/contracts';
import { positionAmount, sizeAmount } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { z } from 'zod';
import type { Clock } from '../../common/clock.js';
import { BadRequest, FieldErrorList, NotFound } from '../../common/errors.js';
import type {
  WebhookConfigRow,
  WebhookExecutionRow,
  WebhookSignalRow,
} from '../../db/schema/index.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import type { ExecutionCore } from '../../execution/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { StepUp } from '../auth/step-up.js';
import {
  checkAlert,
  EMPTY_ALERT,
  normaliseSymbol,
  type ParsedAlert,
  parseAlertBody,
} from './webhook-alert.js';
import { ownerOf, planSignal, type TrailLog } from './webhook-executor.js';
import {
  hashWebhookKey,
  keyHintOf,
  maskedWebhookUrl,
  newWebhookKey,
  webhookUrl,
} from './webhook-keys.js';
import type { ConfigWithAccount, WebhooksRepository } from './webhooks.repository.js';

type CreateInput = z.output<typeof webhookConfigCreateRequest>;
type UpdateInput = z.output<typeof webhookConfigUpdateRequest>;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const money = (value: string | null | undefined) =>
  value === null || value === undefined ? null : new Decimal(value).toString();

export function presentExecution(row: WebhookExecutionRow, configName: string): WebhookExecution {
  return {
    id: row.id,
    signal_id: row.signalId,
    config_id: row.configId,
    config_name: configName,
    exchange_api: row.accountId,
    symbol: row.symbol,
    action: row.action,
    side: row.side,
    quantity: new Decimal(row.quantity).toString(),
    filled_quantity: new Decimal(row.filledQuantity).toString(),
    price: money(row.price),
    fee: new Decimal(row.fee).toString(),
    leverage: row.leverage,
    status: row.status,
    error_kind: (row.errorKind as WebhookExecution['error_kind']) ?? null,
    error: row.error,
    intent_key: row.intentKey,
    exchange_order_id: row.exchangeOrderId,
    created_at: row.createdAt.toISOString(),
    filled_at: iso(row.filledAt),
    receive_to_fill_ms: row.receiveToFillMs,
  };
}

export function presentSignal(
  row: WebhookSignalRow,
  configName: string,
  executions: readonly WebhookExecutionRow[],
): WebhookSignal {
  const received = row.receivedAt.getTime();
  let previous = received;
  const steps = row.steps.map((step) => {
    const at = Date.parse(step.at);
    const entry = {
      step: step.step,
      at: step.at,
      latency_ms: Math.max(0, Math.round(at - previous)),
      since_received_ms: Math.max(0, Math.round(at - received)),
      detail: step.detail,
    };
    previous = at;
    return entry;
  });
  return {
    id: row.id,
    config_id: row.configId,
    config_name: configName,
    status: row.status,
    reason: row.reason,
    message: row.message,
    error_kind: (row.errorKind as WebhookSignal['error_kind']) ?? null,
    action: row.action,
    symbol: row.symbol,
    amount: money(row.amount),
    price: money(row.price),
    external_id: row.externalId,
    signal_time: iso(row.signalTime),
    source_ip: row.sourceIp,
    raw_body: row.rawBody,
    raw_body_truncated: row.rawBodyTruncated,
    received_at: row.receivedAt.toISOString(),
    total_latency_ms: row.totalLatencyMs,
    steps,
    executions: executions.map((e) => presentExecution(e, configName)),
  };
}

export const presentAlert = (alert: ParsedAlert) => ({
  action: alert.action,
  symbol: alert.symbol,
  amount: alert.amount,
  price: alert.price,
  external_id: alert.externalId,
  signal_time: iso(alert.signalTime),
});

/** An IPv4 or IPv6 address, normalised (IPv4-mapped IPv6 as IPv4). */
export function normaliseIp(text: string): string | null {
  const trimmed = text.trim().toLowerCase();
  const unmapped =
    trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
  return isIP(unmapped) ? unmapped : null;
}

export function createWebhooksService(deps: {
  readonly repo: WebhooksRepository;
  readonly clock: Clock;
  readonly execution: ExecutionCore;
  readonly prices: PriceSource;
  readonly feed: MarketFeed;
  readonly trail: TrailLog;
  /** A new key of a user with 2FA on needs an authenticator code (the app passes it). */
  readonly stepUp?: StepUp | undefined;
}) {
  const { repo, clock } = deps;

  async function positionsOf(found: ConfigWithAccount): Promise<WebhookPosition[]> {
    const rows = await deps.execution.openPositionsOf([ownerOf(found.config.id)]);
    return rows
      .filter((p) => !new Decimal(p.size).isZero())
      .map((p) => ({
        symbol: p.symbol,
        size: new Decimal(p.size).toString(),
        side: new Decimal(p.size).gt(0) ? ('long' as const) : ('short' as const),
        entry_price: new Decimal(p.entryPrice).toString(),
        realized_pnl: new Decimal(p.realizedPnl).toString(),
      }));
  }

  async function present(
    found: ConfigWithAccount,
    baseUrl: string,
    key?: string,
  ): Promise<WebhookConfig> {
    const { config, account } = found;
    const summary = (await repo.signalSummaries([config.id])).get(config.id);
    return {
      id: config.id,
      name: config.name,
      exchange_api: account.id,
      exchange_api_name: account.name,
      exchange: account.exchange,
      is_testnet: account.isTestnet,
      symbol: config.symbol,
      default_amount: new Decimal(config.defaultAmount).toString(),
      max_amount: money(config.maxAmount),
      leverage: config.leverage,
      allowed_actions: config.allowedActions,
      allow_pyramiding: config.allowPyramiding,
      max_signal_age: config.maxSignalAge,
      ip_allowlist: config.ipAllowlist,
      enabled: config.enabled,
      webhook_url: key ? webhookUrl(baseUrl, key) : maskedWebhookUrl(baseUrl, config.keyHint),
      key_visible: key !== undefined,
      key_hint: config.keyHint,
      key_created_at: config.keyCreatedAt.toISOString(),
      signal_count: summary?.n ?? 0,
      last_signal_at: iso(summary?.lastAt),
      last_signal_status: summary?.lastStatus ?? null,
      positions: await positionsOf(found),
      created_at: config.createdAt.toISOString(),
      updated_at: config.updatedAt.toISOString(),
    };
  }

  async function owned(userId: number, id: number): Promise<ConfigWithAccount> {
    const [found] = await repo.ownedConfigs(userId, id);
    if (!found) throw new NotFound(WEBHOOK_MESSAGES.configNotFound);
    return found;
  }

  /** The checks beyond the schema: the account, the symbol, the amounts, the addresses. */
  async function checkRules(
    userId: number,
    input: {
      exchange_api?: number | undefined;
      symbol?: string | null | undefined;
      default_amount?: string | undefined;
      max_amount?: string | null | undefined;
      ip_allowlist?: string[] | undefined;
    },
    current?: WebhookConfigRow,
  ) {
    const errors = new FieldErrorList();
    const accountId = input.exchange_api ?? current?.exchangeAccountId;
    const account =
      accountId === undefined ? undefined : await repo.findOwnedAccount(userId, accountId);
    if (input.exchange_api !== undefined) {
      if (!account) {
        errors.add(
          'exchange_api',
          WEBHOOK_MESSAGES.accountNotFound,
          WEBHOOK_FIELD_ERROR_CODES.unknownAccount,
        );
      } else if (!account.isActive) {
        errors.add(
          'exchange_api',
          WEBHOOK_MESSAGES.accountInactive,
          WEBHOOK_FIELD_ERROR_CODES.accountInactive,
        );
      }
    }
    let symbol: string | null | undefined;
    if (input.symbol !== undefined) {
      symbol = input.symbol === null ? null : normaliseSymbol(input.symbol);
      if (input.symbol !== null && !symbol) {
        errors.add('symbol', WEBHOOK_MESSAGES.invalidSymbol, FIELD_ERROR_CODES.invalidFormat);
      } else if (symbol && account) {
        const listed = await deps.feed.symbols(account.exchange).catch(() => undefined);
        if (listed && !listed.symbols.includes(symbol)) {
          errors.add(
            'symbol',
            WEBHOOK_MESSAGES.unknownSymbol,
            WEBHOOK_FIELD_ERROR_CODES.unknownSymbol,
          );
        }
      }
    }
    const defaultAmount = input.default_amount ?? current?.defaultAmount;
    const maxAmount =
      input.max_amount !== undefined ? input.max_amount : (current?.maxAmount ?? null);
    if (
      defaultAmount !== undefined &&
      maxAmount !== null &&
      new Decimal(maxAmount).lt(defaultAmount)
    ) {
      errors.add(
        input.max_amount !== undefined ? 'max_amount' : 'default_amount',
        WEBHOOK_MESSAGES.maxBelowDefault,
        WEBHOOK_FIELD_ERROR_CODES.maxBelowDefault,
      );
    }
    let ips: string[] | undefined;
    if (input.ip_allowlist !== undefined) {
      ips = [];
      for (const text of input.ip_allowlist) {
        const ip = normaliseIp(text);
        if (!ip) {
          errors.add(
            'ip_allowlist',
            WEBHOOK_MESSAGES.invalidIp,
            WEBHOOK_FIELD_ERROR_CODES.invalidIp,
          );
        } else if (!ips.includes(ip)) ips.push(ip);
      }
    }
    if (!errors.isEmpty) throw errors.failure();
    return { symbol, ips };
  }

  const parseFilter = <T extends { since?: string | undefined; until?: string | undefined }>(
    q: T,
  ) => ({
    since: q.since ? new Date(q.since) : undefined,
    until: q.until ? new Date(q.until) : undefined,
  });

  async function statsWindow(
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

  return {
    async list(userId: number, baseUrl: string) {
      const rows = await repo.ownedConfigs(userId);
      const results = await Promise.all(rows.map((row) => present(row, baseUrl)));
      return { results, count: results.length };
    },

    async get(userId: number, id: number, baseUrl: string) {
      return present(await owned(userId, id), baseUrl);
    },

    async create(userId: number, input: CreateInput, baseUrl: string): Promise<WebhookConfig> {
      const { symbol, ips } = await checkRules(userId, input);
      if ((await repo.countConfigs(userId)) >= WEBHOOK_CONFIGS_MAX) {
        throw new BadRequest(WEBHOOK_ERROR_CODES.tooManyConfigs, WEBHOOK_MESSAGES.tooManyConfigs);
      }
      const key = newWebhookKey();
      const now = clock.now();
      const row = await repo.insertConfig({
        userId,
        exchangeAccountId: input.exchange_api,
        name: input.name,
        symbol: symbol ?? null,
        defaultAmount: input.default_amount,
        maxAmount: input.max_amount,
        leverage: input.leverage,
        allowedActions: [...new Set(input.allowed_actions)],
        allowPyramiding: input.allow_pyramiding,
        maxSignalAge: input.max_signal_age,
        ipAllowlist: ips ?? [],
        enabled: input.enabled,
        keyHash: hashWebhookKey(key),
        keyHint: keyHintOf(key),
        keyCreatedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      await deps.trail({
        config: row,
        signalId: null,
        level: 'info',
        event: 'config_created',
        message: `Created webhook configuration ${row.name}`,
      });
      return present(await owned(userId, row.id), baseUrl, key);
    },

    async update(userId: number, id: number, input: UpdateInput, baseUrl: string) {
      const found = await owned(userId, id);
      const { symbol, ips } = await checkRules(userId, input, found.config);
      const values: Partial<WebhookConfigRow> = { updatedAt: clock.now() };
      if (input.name !== undefined) values.name = input.name;
      if (input.exchange_api !== undefined) values.exchangeAccountId = input.exchange_api;
      if (symbol !== undefined) values.symbol = symbol;
      if (input.default_amount !== undefined) values.defaultAmount = input.default_amount;
      if (input.max_amount !== undefined) values.maxAmount = input.max_amount;
      if (input.leverage !== undefined) values.leverage = input.leverage;
      if (input.allowed_actions !== undefined)
        values.allowedActions = [...new Set(input.allowed_actions)];
      if (input.allow_pyramiding !== undefined) values.allowPyramiding = input.allow_pyramiding;
      if (input.max_signal_age !== undefined) values.maxSignalAge = input.max_signal_age;
      if (ips !== undefined) values.ipAllowlist = ips;
      if (input.enabled !== undefined) values.enabled = input.enabled;
      const row = await repo.updateConfig(userId, id, values);
      if (!row) throw new NotFound(WEBHOOK_MESSAGES.configNotFound);
      await deps.trail({
        config: row,
        signalId: null,
        level: 'info',
        event:
          input.enabled !== undefined && input.enabled !== found.config.enabled
            ? input.enabled
              ? 'config_enabled'
              : 'config_disabled'
            : 'config_updated',
        message: `Updated webhook configuration ${row.name}`,
      });
      return present(await owned(userId, id), baseUrl);
    },

    async remove(userId: number, id: number): Promise<void> {
      const found = await owned(userId, id);
      await repo.deleteConfigs(userId, [id]);
      await deps.trail({
        config: null,
        signalId: null,
        level: 'info',
        event: 'config_deleted',
        message: `Deleted webhook configuration ${found.config.name}`,
        userId,
      });
    },

    /** `stepUp`: the code sent and the client's address (for the code's lock). */
    async regenerateKey(
      userId: number,
      id: number,
      baseUrl: string,
      stepUp: { googleCode?: string | undefined; address: string } = { address: '' },
    ) {
      await owned(userId, id);
      await deps.stepUp?.confirm(userId, stepUp.googleCode, stepUp.address);
      const key = newWebhookKey();
      const now = clock.now();
      const row = await repo.updateConfig(userId, id, {
        keyHash: hashWebhookKey(key),
        keyHint: keyHintOf(key),
        keyCreatedAt: now,
        updatedAt: now,
      });
      if (!row) throw new NotFound(WEBHOOK_MESSAGES.configNotFound);
      await deps.trail({
        config: row,
        signalId: null,
        level: 'warning',
        event: 'key_regenerated',
        message: `Regenerated the URL of ${row.name}; the old URL stops working`,
      });
      return present(await owned(userId, id), baseUrl, key);
    },

    async batch(
      userId: number,
      input: WebhookBatchActionRequest,
    ): Promise<WebhookBatchActionResponse> {
      const ids = [...new Set(input.ids)];
      const now = clock.now();
      const done =
        input.action === 'delete'
          ? await repo.deleteConfigs(userId, ids)
          : await repo.updateConfigs(userId, ids, {
              enabled: input.action === 'enable',
              updatedAt: now,
            });
      const updated = done.map((d) => d.id);
      for (const d of done) {
        await deps.trail({
          config:
            input.action === 'delete'
              ? null
              : ({ id: d.id, name: d.name, userId } as WebhookConfigRow),
          signalId: null,
          level: 'info',
          event:
            input.action === 'delete'
              ? 'config_deleted'
              : input.action === 'enable'
                ? 'config_enabled'
                : 'config_disabled',
          message: `${input.action === 'delete' ? 'Deleted' : input.action === 'enable' ? 'Enabled' : 'Disabled'} webhook configuration ${d.name}`,
          userId,
        });
      }
      return {
        action: input.action,
        updated: updated.sort((a, b) => a - b),
        not_found: ids.filter((id) => !updated.includes(id)).sort((a, b) => a - b),
      };
    },

    /** The dry run: parsing, validation and the plan, nothing ordered or recorded. */
    async test(
      userId: number,
      id: number,
      input: { body: string | Record<string, unknown>; source_ip?: string | undefined },
    ): Promise<WebhookTestResponse> {
      const found = await owned(userId, id);
      const { config, account } = found;
      const base = {
        leverage: config.leverage,
        amount: null,
        market_price: null,
        notional: null,
        plan: [],
        position: null,
      };
      const refused = (reason: WebhookTestResponse['reason'] & string, alert: ParsedAlert) => ({
        ...base,
        accepted: false,
        outcome: 'refused' as const,
        reason,
        message: (WEBHOOK_MESSAGES.refused as Record<string, string>)[reason] ?? reason,
        parsed: presentAlert(alert),
      });
      const text = typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
      const parsed = parseAlertBody(text);
      if (!parsed.ok) return refused(parsed.reason, EMPTY_ALERT);
      const check = checkAlert(parsed.body, config, clock.now());
      if (!check.ok) return refused(check.reason, check.alert);
      if (!config.enabled) return refused('disabled', check.alert);
      if (!account.isActive) return refused('account_inactive', check.alert);
      if (input.source_ip !== undefined && config.ipAllowlist.length > 0) {
        const ip = normaliseIp(input.source_ip);
        if (!ip || !config.ipAllowlist.includes(ip)) return refused('ip_not_allowed', check.alert);
      }
      const alert = check.alert;
      const position = await deps.execution.position({
        accountId: account.id,
        symbol: alert.symbol,
        owner: ownerOf(config.id),
      });
      const size = new Decimal(position.size);
      const positionView: WebhookPosition | null = size.isZero()
        ? null
        : {
            symbol: alert.symbol,
            size: size.toString(),
            side: size.gt(0) ? 'long' : 'short',
            entry_price: new Decimal(position.entryPrice).toString(),
            realized_pnl: new Decimal(position.realizedPnl).toString(),
          };
      const plan = planSignal(alert.action, size, config.allowPyramiding);
      const parsedView = presentAlert(alert);
      if (plan.kind === 'ignore') {
        return {
          ...base,
          accepted: true,
          outcome: 'ignored',
          reason: plan.reason,
          message: WEBHOOK_MESSAGES.ignored[plan.reason],
          parsed: parsedView,
          amount: alert.amount,
          position: positionView,
        };
      }
      let price: number | null = null;
      try {
        price = await deps.prices.lastPrice(account.exchange, alert.symbol);
      } catch {
        price = null;
      }
      const steps: WebhookTestResponse['plan'] = [];
      let quantity: number | null = null;
      if (plan.kind === 'close') {
        steps.push({
          action: plan.action,
          quantity: plan.quantity.toString(),
          side: plan.side,
          reduce_only: true,
        });
      } else if (price !== null) {
        let facts: Parameters<typeof sizeAmount>[2] | undefined;
        try {
          facts = await deps.execution
            .clientOf(await deps.execution.account(account.id))
            .marketFacts(alert.symbol);
        } catch {
          facts = undefined;
        }
        const raw = positionAmount(Number(alert.amount), config.leverage, price);
        const sized = facts ? sizeAmount(raw, price, facts) : { ok: true as const, amount: raw };
        quantity = sized.ok ? sized.amount : raw;
        if (!plan.adding && !size.isZero()) {
          steps.push({
            action: size.gt(0) ? 'close_long' : 'close_short',
            quantity: size.abs().toString(),
            side: plan.side,
            reduce_only: true,
          });
        }
        steps.push({
          action: plan.adding ? plan.action : plan.direction > 0 ? 'open_long' : 'open_short',
          quantity: String(quantity),
          side: plan.side,
          reduce_only: false,
        });
      }
      return {
        ...base,
        accepted: true,
        outcome: 'validated',
        reason: null,
        message: WEBHOOK_MESSAGES.accepted,
        parsed: parsedView,
        amount: alert.amount,
        market_price: price === null ? null : String(price),
        notional:
          price === null || quantity === null
            ? null
            : new Decimal(quantity).times(price).toDecimalPlaces(2).toString(),
        plan: steps,
        position: positionView,
      };
    },

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
        last_24h: await statsWindow(userId, query.config, since),
        total: await statsWindow(userId, query.config, undefined),
        configs: { total: configs.length, enabled: configs.filter((c) => c.config.enabled).length },
      };
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
