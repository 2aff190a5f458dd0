import { type APIRequestContext, expect } from '@playwright/test';
import type {
  WebhookAction,
  WebhookConfig,
  WebhookHookAccepted,
  WebhookSignal,
} from '@quantsquare/contracts';

/** What tradeThroughWebhook did: the configuration, the alert as posted, the settled signal. */
export interface WebhookTrade {
  readonly config: WebhookConfig;
  /** The receiver path with its key (/api/webhook-trading/hook/{key}/). */
  readonly hookPath: string;
  readonly alert: Record<string, unknown>;
  readonly signal: WebhookSignal;
  /** The fill (null when the signal was ignored, e.g. a close with nothing held). */
  readonly execution: WebhookSignal['executions'][number] | null;
}

let alerts = 0;

/**
 * Makes an account trade deterministically, as a TradingView alert would: creates a webhook
 * configuration on the (paper) account over the API — or reuses `options.config` — posts the
 * alert to its receiver URL as text/plain with no login, and waits until the signal has settled
 * (filled). Other browser tests use it to make a leader trade.
 */
export async function tradeThroughWebhook(
  request: APIRequestContext,
  accessToken: string,
  accountId: number,
  action: WebhookAction = 'buy',
  options: {
    symbol?: string;
    amount?: number;
    leverage?: number;
    /** A configuration made by an earlier call (its hookPath), to trade again on it. */
    reuse?: { config: WebhookConfig; hookPath: string };
    /** Accept `ignored` too (a close with nothing to close); default: only `filled`. */
    allowIgnored?: boolean;
  } = {},
): Promise<WebhookTrade> {
  const headers = { authorization: `Bearer ${accessToken}` };
  let config = options.reuse?.config;
  let hookPath = options.reuse?.hookPath;
  if (!config || !hookPath) {
    const created = await request.post('/api/webhook-trading/configs/', {
      headers,
      data: {
        name: `E2E webhook ${Date.now() % 100000}-${++alerts}`,
        exchange_api: accountId,
        symbol: options.symbol ?? 'BTC/USDT:USDT',
        leverage: options.leverage ?? 2,
        default_amount: 100,
        allow_pyramiding: true,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    config = (await created.json()) as WebhookConfig;
    hookPath = new URL(config.webhook_url).pathname;
  }
  const alert = {
    action,
    symbol: options.symbol ?? config.symbol ?? 'BTC/USDT:USDT',
    amount: options.amount ?? 100,
    id: `e2e-${Date.now()}-${++alerts}`,
    timestamp: new Date().toISOString(),
  };
  // As TradingView posts: text/plain, no headers of ours, no login.
  const posted = await request.post(hookPath, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    data: JSON.stringify(alert),
  });
  expect(posted.status(), await posted.text()).toBe(202);
  const accepted = (await posted.json()) as WebhookHookAccepted;

  let signal: WebhookSignal | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/webhook-trading/signals/${accepted.signal_id}/`, {
          headers,
        });
        signal = (await res.json()) as WebhookSignal;
        return signal.status;
      },
      { timeout: 20_000, intervals: [100, 200, 400] },
    )
    .toMatch(options.allowIgnored ? /^(filled|ignored)$/ : /^filled$/);
  const settled = signal as WebhookSignal;
  return {
    config,
    hookPath,
    alert,
    signal: settled,
    execution: settled.executions.find((e) => e.status === 'filled') ?? null,
  };
}
