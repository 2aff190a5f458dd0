import {
  WEBHOOK_MESSAGES,
  type WebhookPosition,
  type WebhookTestResponse,
} from '@quantsquare/contracts';
import { positionAmount, sizeAmount } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import type { ExecutionCore } from '../../execution/index.js';
import { checkAlert, EMPTY_ALERT, type ParsedAlert, parseAlertBody } from './webhook-alert.js';
import { normaliseIp } from './webhook-config-rules.js';
import { presentAlert } from './webhook-present.js';
import { ownerOf, planSignal } from './webhook-signal-plan.js';
import type { ConfigWithAccount } from './webhooks.repository.js';

// A configuration's test signal: what the receiver and the executor would decide for a body,
// with the position and the market price of now; nothing is ordered or recorded.

/** The position as the test answer shows it; null when flat. */
function positionViewOf(
  symbol: string,
  position: { size: string; entryPrice: string; realizedPnl: string },
): WebhookPosition | null {
  const size = new Decimal(position.size);
  if (size.isZero()) return null;
  return {
    symbol,
    size: size.toString(),
    side: size.gt(0) ? 'long' : 'short',
    entry_price: new Decimal(position.entryPrice).toString(),
    realized_pnl: new Decimal(position.realizedPnl).toString(),
  };
}

/** The orders the plan would send at `price` (sized by the market's steps), and the quantity. */
async function planSteps(
  execution: ExecutionCore,
  found: ConfigWithAccount,
  alert: Extract<ReturnType<typeof checkAlert>, { ok: true }>['alert'],
  plan: Exclude<ReturnType<typeof planSignal>, { kind: 'ignore' }>,
  size: Decimal,
  price: number | null,
): Promise<{ steps: WebhookTestResponse['plan']; quantity: number | null }> {
  const { config, account } = found;
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
      facts = await execution
        .clientOf(await execution.account(account.id))
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
  return { steps, quantity };
}

export function createWebhookDryRun(deps: {
  readonly clock: Clock;
  readonly execution: ExecutionCore;
  readonly prices: PriceSource;
  /** The user's configuration, or NotFound. */
  readonly owned: (userId: number, id: number) => Promise<ConfigWithAccount>;
}) {
  const { clock, owned } = deps;
  return {
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
      const positionView = positionViewOf(alert.symbol, position);
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
      const { steps, quantity } = await planSteps(deps.execution, found, alert, plan, size, price);
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
  };
}
