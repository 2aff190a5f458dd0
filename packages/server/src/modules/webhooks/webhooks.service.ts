import {
  WEBHOOK_CONFIGS_MAX,
  WEBHOOK_ERROR_CODES,
  WEBHOOK_MESSAGES,
  type WebhookBatchActionRequest,
  type WebhookBatchActionResponse,
  type WebhookConfig,
  type WebhookPosition,
  type webhookConfigCreateRequest,
  type webhookConfigUpdateRequest,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import type { z } from 'zod';
import type { Clock } from '../../common/clock.js';
import { BadRequest, NotFound } from '../../common/errors.js';
import type { NewWebhookConfigRow, WebhookConfigRow } from '../../db/schema/index.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import type { ExecutionCore } from '../../execution/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { StepUp } from '../auth/step-up.js';
import { checkRules } from './webhook-config-rules.js';
import { createWebhookDryRun } from './webhook-dry-run.js';
import {
  hashWebhookKey,
  keyHintOf,
  maskedWebhookUrl,
  newWebhookKey,
  webhookUrl,
} from './webhook-keys.js';
import { iso, money } from './webhook-present.js';
import { ownerOf, type TrailLog } from './webhook-signal-plan.js';
import { createWebhookTrailReads } from './webhook-trail-reads.js';
import type { ConfigWithAccount, WebhooksRepository } from './webhooks.repository.js';

export { normaliseIp } from './webhook-config-rules.js';
export { presentAlert, presentExecution, presentSignal } from './webhook-present.js';

// The user's webhook configurations (create, change, delete, new key, batch) as the API shows
// them; the dry run (webhook-dry-run.ts) and the trail's lists (webhook-trail-reads.ts) are
// served here too.

type CreateInput = z.output<typeof webhookConfigCreateRequest>;
type UpdateInput = z.output<typeof webhookConfigUpdateRequest>;

type ServiceDeps = Parameters<typeof createWebhooksService>[0];

/** A new URL key for a configuration (the old URL stops working); 2FA users confirm it. */
async function regenerateKeyOf(
  deps: Pick<ServiceDeps, 'repo' | 'clock' | 'trail' | 'stepUp'> & {
    owned(userId: number, id: number): Promise<ConfigWithAccount>;
    present(found: ConfigWithAccount, baseUrl: string, key?: string): Promise<WebhookConfig>;
  },
  userId: number,
  id: number,
  baseUrl: string,
  stepUp: { googleCode?: string | undefined; address: string },
): Promise<WebhookConfig> {
  const { repo, clock, owned, present } = deps;
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
}

/** A configuration's open positions (its owner's part of the account's book). */
async function positionsOf(
  execution: ExecutionCore,
  found: ConfigWithAccount,
): Promise<WebhookPosition[]> {
  const rows = await execution.openPositionsOf([ownerOf(found.config.id)]);
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

/** A configuration as the API shows it (with its URL's key when it was just made). */
async function presentConfig(
  deps: Pick<ServiceDeps, 'repo' | 'execution'>,
  found: ConfigWithAccount,
  baseUrl: string,
  key?: string,
): Promise<WebhookConfig> {
  const { config, account } = found;
  const summary = (await deps.repo.signalSummaries([config.id])).get(config.id);
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
    positions: await positionsOf(deps.execution, found),
    created_at: config.createdAt.toISOString(),
    updated_at: config.updatedAt.toISOString(),
  };
}

/** A new configuration's row (its URL's key stored as a hash and a hint). */
function newConfigValues(
  userId: number,
  input: CreateInput,
  symbol: string | null | undefined,
  ips: string[] | undefined,
  key: string,
  now: Date,
): NewWebhookConfigRow {
  return {
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
  };
}

/** The columns an update changes: only the fields it gives. */
function changedValues(
  input: UpdateInput,
  symbol: string | null | undefined,
  ips: string[] | undefined,
  now: Date,
): Partial<WebhookConfigRow> {
  const values: Partial<WebhookConfigRow> = { updatedAt: now };
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
  return values;
}

/** Deletes, enables or disables several of a user's configurations; answers which were found. */
async function batchAction(
  deps: Pick<ServiceDeps, 'repo' | 'clock' | 'trail'>,
  userId: number,
  input: WebhookBatchActionRequest,
): Promise<WebhookBatchActionResponse> {
  const { repo, clock } = deps;
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
        input.action === 'delete' ? null : ({ id: d.id, name: d.name, userId } as WebhookConfigRow),
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

  async function owned(userId: number, id: number): Promise<ConfigWithAccount> {
    const [found] = await repo.ownedConfigs(userId, id);
    if (!found) throw new NotFound(WEBHOOK_MESSAGES.configNotFound);
    return found;
  }

  const present = (found: ConfigWithAccount, baseUrl: string, key?: string) =>
    presentConfig(deps, found, baseUrl, key);

  const dryRun = createWebhookDryRun({
    clock,
    execution: deps.execution,
    prices: deps.prices,
    owned,
  });
  const reads = createWebhookTrailReads({ repo, clock });

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
      const { symbol, ips } = await checkRules(deps, userId, input);
      if ((await repo.countConfigs(userId)) >= WEBHOOK_CONFIGS_MAX) {
        throw new BadRequest(WEBHOOK_ERROR_CODES.tooManyConfigs, WEBHOOK_MESSAGES.tooManyConfigs);
      }
      const key = newWebhookKey();
      const now = clock.now();
      const row = await repo.insertConfig(newConfigValues(userId, input, symbol, ips, key, now));
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
      const { symbol, ips } = await checkRules(deps, userId, input, found.config);
      const values = changedValues(input, symbol, ips, clock.now());
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
    regenerateKey: (
      userId: number,
      id: number,
      baseUrl: string,
      stepUp: { googleCode?: string | undefined; address: string } = { address: '' },
    ) => regenerateKeyOf({ ...deps, owned, present }, userId, id, baseUrl, stepUp),

    batch: (userId: number, input: WebhookBatchActionRequest) => batchAction(deps, userId, input),
    test: dryRun.test,
    signals: reads.signals,
    signal: reads.signal,
    executions: reads.executions,
    logs: reads.logs,
    stats: reads.stats,
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
