// What a ccxt client's parts share: its venue's capabilities, its one ccxt instance, the retry
// policy and the markets once loaded. Requests go through `read` (translated, clock-resynced,
// retried) and markets through `loadMarkets` / `marketOf`.
import type { Exchange as CcxtExchange } from 'ccxt';
import type { ExchangeCapabilities } from '../exchange-capabilities.js';
import { ExchangeAdapterError } from '../exchange-client.js';
import { isClockSkew, translateCcxtError } from './ccxt-errors.js';
import type { CcxtExchangeClientOptions } from './ccxt-exchange-client.js';
import { type RequestWindow, retryAfterMsOf } from './ccxt-instance.js';
import type { Market } from './ccxt-mapping.js';
import { adoptTransport, transportOf } from './ccxt-transport.js';
import type { LeanRequests } from './lean-requests.js';
import type { LoadedMarkets } from './market-cache.js';
import { type RetryPolicy, type Sleep, withReadRetries } from './read-retry.js';

/** One ccxt client: built once by createCcxtExchangeClient, passed to each of its functions. */
export interface CcxtClientContext {
  readonly options: CcxtExchangeClientOptions;
  readonly caps: ExchangeCapabilities;
  /** What a log line or an error message must never show. */
  readonly secrets: readonly string[];
  readonly instance: CcxtExchange;
  /** The hot order requests sent lean (lean-requests.ts); null: through ccxt's own calls. */
  readonly lean: LeanRequests | null;
  /** The orders being created and their request windows, by client order id. */
  readonly windows: Map<string, RequestWindow>;
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly policy: RetryPolicy;
  /** The venue a shared market list belongs to (the same endpoint, the same markets). */
  readonly venue: string;
  marketsLoading: Promise<void> | undefined;
  mustReloadMarkets: boolean;
}

export function translate(ctx: CcxtClientContext, error: unknown, action: string) {
  return translateCcxtError(error, {
    exchange: ctx.options.exchange,
    action,
    secrets: ctx.secrets,
    caps: ctx.caps,
    retryAfterMs: retryAfterMsOf(ctx.instance),
  });
}

/** One request, re-sent once after a clock re-sync if the exchange said our time is off. */
export async function withClockResync<T>(
  ctx: CcxtClientContext,
  action: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isClockSkew(error, ctx.caps)) throw error;
    ctx.options.logger?.warn({ exchange: ctx.options.exchange, action }, 'clock skew; re-syncing');
    await ctx.instance.loadTimeDifference();
    return await run();
  }
}

/** A read (or idempotent write): translated, clock-resynced, retried with backoff. */
export function read<T>(ctx: CcxtClientContext, action: string, run: () => Promise<T>): Promise<T> {
  return withReadRetries(
    async () => {
      try {
        return await withClockResync(ctx, action, run);
      } catch (error) {
        throw translate(ctx, error, action);
      }
    },
    ctx.policy,
    ctx.sleep,
  );
}

/** Sends through the venue's shared keep-alive pool once another client has loaded it. */
export function shareTransport(ctx: CcxtClientContext): void {
  const cache = ctx.options.marketCache;
  if (!cache) return;
  const shared = cache.transport(ctx.venue);
  if (shared) {
    adoptTransport(ctx.instance, shared);
    return;
  }
  const own = transportOf(ctx.instance);
  if (own) cache.keepTransport(ctx.venue, own);
}

/** This instance loads the venue's markets; the shared list is what it ends up holding. */
async function ownLoad(ctx: CcxtClientContext): Promise<LoadedMarkets> {
  const { instance } = ctx;
  await instance.loadMarkets(ctx.mustReloadMarkets);
  // Its first request loaded its transport: the venue's other clients may send through it.
  shareTransport(ctx);
  return {
    markets: instance.markets as unknown as Record<string, unknown>,
    currencies: instance.currencies as unknown as Record<string, unknown> | undefined,
  };
}

export function loadMarkets(ctx: CcxtClientContext): Promise<void> {
  if (!ctx.marketsLoading) {
    const { instance } = ctx;
    ctx.marketsLoading = read(ctx, 'load markets', async () => {
      try {
        const cache = ctx.options.marketCache;
        if (!cache || ctx.mustReloadMarkets) {
          await ownLoad(ctx);
          return;
        }
        const shared = await cache.get(ctx.venue, () => ownLoad(ctx));
        shareTransport(ctx);
        // Another instance's list: indexed here, so ccxt's own loadMarkets has nothing to fetch.
        if ((instance.markets as unknown) !== shared.markets) {
          instance.setMarkets(
            shared.markets as unknown as Parameters<CcxtExchange['setMarkets']>[0],
            shared.currencies as unknown as Parameters<CcxtExchange['setMarkets']>[1],
          );
        }
      } catch (error) {
        // ccxt keeps a failed load's promise; the next try must ask it to reload.
        ctx.mustReloadMarkets = true;
        throw error;
      }
    }).catch((error: unknown) => {
      ctx.marketsLoading = undefined;
      throw error;
    });
  }
  return ctx.marketsLoading;
}

export async function marketOf(ctx: CcxtClientContext, symbol: string): Promise<Market> {
  await loadMarkets(ctx);
  const market = ctx.instance.markets?.[symbol];
  if (market?.swap !== true) {
    throw new ExchangeAdapterError(
      'invalid_order',
      `${ctx.options.exchange}: no swap market ${symbol}`,
    );
  }
  return market;
}

export const marketOfLoaded = (ctx: CcxtClientContext, symbol: string): Market | undefined =>
  ctx.instance.markets?.[symbol];
