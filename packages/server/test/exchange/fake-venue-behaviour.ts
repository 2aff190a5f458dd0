import type { FakeVenue } from './fake-exchange-private.js';

// How faithfully the fake venues behave after an order's ack. Every behaviour is off by default
// (the fakes then answer as our code once expected: filled at once, in one trade, fees in USDT);
// `venueFaithful: true` turns on all of them with the values of VENUE_FAITHFUL below, and any
// field given explicitly wins over the preset (0 or false turns one off). Sources per behaviour:
// packages/server/test/exchange/README.md.

export interface VenueBehaviourOptions {
  /**
   * For this long after its ack (ms), an order is unknown to lookups: GET order by id or client
   * id answers "order does not exist" (OKX 51603, Binance -2013) and open-order lists leave it
   * out. Creates, duplicates and cancels still see it (the matching engine knows it).
   */
  readonly lookupLagMs?: number;
  /**
   * Market and marketable-IOC orders fill this long after their ack (ms). Until then the order
   * reads NEW / live with 0 filled; Binance's create answer says NEW with executedQty 0.
   */
  readonly fillDelayMs?: number;
  /** Such fills come in this many trades (fewer if the size has fewer lots), each a row of its own. */
  readonly tradesPerFill?: number;
  /** Each trade is this many ticks worse than the one before (buys up, sells down from the mark). */
  readonly tradeStepTicks?: number;
  /** The trades of one fill land this many ms apart: between them the order is partially filled. */
  readonly tradeSpacingMs?: number;
  /**
   * A marketable IOC limit order fills only this share of its size (rounded down to the lot);
   * the rest expires (Binance EXPIRED, OKX canceled, with the filled part kept). 1 = all of it.
   */
  readonly iocFillRatio?: number;
  /** Fees are charged in the venue's coin: Binance BNB, OKX OKB (at FEE_COIN_PRICES_USDT). */
  readonly isFeeInPlatformCoin?: boolean;
  /** Every Nth order create (N, 2N, …) is refused as rate-limited before it is looked at. 0 = never. */
  readonly rateLimitEveryNthOrder?: number;
  /** Retry-After (seconds) of those refusals (Binance sends it; OKX sends none). */
  readonly retryAfterSeconds?: number;
  /**
   * The venue's own request expiry, checked when the request is processed (after any hold or
   * delay): Binance refuses -1021 once timestamp + recvWindow (default 5000) is past, or when
   * timestamp is over 1 s ahead; OKX refuses a request whose `expTime` header (ms) is past.
   */
  readonly enforcesRequestExpiry?: boolean;
}

export type VenueBehaviour = Required<VenueBehaviourOptions>;

export const VENUE_DEFAULTS: VenueBehaviour = {
  lookupLagMs: 0,
  fillDelayMs: 0,
  tradesPerFill: 1,
  tradeStepTicks: 0,
  tradeSpacingMs: 0,
  iocFillRatio: 1,
  isFeeInPlatformCoin: false,
  rateLimitEveryNthOrder: 0,
  retryAfterSeconds: 1,
  enforcesRequestExpiry: false,
};

/** What `venueFaithful: true` turns on. */
export const VENUE_FAITHFUL: VenueBehaviour = {
  lookupLagMs: 1_000,
  fillDelayMs: 300,
  tradesPerFill: 3,
  tradeStepTicks: 2,
  tradeSpacingMs: 100,
  iocFillRatio: 0.5,
  isFeeInPlatformCoin: true,
  rateLimitEveryNthOrder: 10,
  retryAfterSeconds: 1,
  enforcesRequestExpiry: true,
};

export function resolveBehaviour(
  isVenueFaithful: boolean,
  explicit: VenueBehaviourOptions,
): VenueBehaviour {
  const defined = Object.fromEntries(
    Object.entries(explicit).filter(([, value]) => value !== undefined),
  );
  return { ...(isVenueFaithful ? VENUE_FAITHFUL : VENUE_DEFAULTS), ...defined };
}

/** Taker fee rate on the notional, in USDT before any conversion. */
export const TAKER_FEE_RATE = 0.0005;
/** The fake prices of the fee coins. */
export const FEE_COIN_PRICES_USDT: Readonly<Record<string, number>> = { BNB: 600, OKB: 50 };
export const FEE_COINS: Readonly<Record<FakeVenue, string>> = { binance: 'BNB', okx: 'OKB' };

/** Price ticks and order lots (the venue's units: OKX contracts) of the fake markets. */
export const TICK_SIZES: Readonly<Record<string, number>> = { BTC: 0.1, ETH: 0.01 };
export const LOT_SIZES: Readonly<Record<FakeVenue, number>> = { binance: 0.001, okx: 0.01 };

/** Rounds away float noise (0.1 + 0.2) to 10 decimals. */
export const clean = (value: number): number => Number(value.toFixed(10));

/** A fee of `notionalUsdt` in the asset the venue charges. */
export function feeOf(
  notionalUsdt: number,
  venue: FakeVenue,
  behaviour: VenueBehaviour,
): { fee: number; asset: string } {
  const usdt = notionalUsdt * TAKER_FEE_RATE;
  if (!behaviour.isFeeInPlatformCoin) return { fee: clean(usdt), asset: 'USDT' };
  const asset = FEE_COINS[venue];
  return { fee: Number((usdt / (FEE_COIN_PRICES_USDT[asset] ?? 1)).toFixed(8)), asset };
}

export interface PlannedTrade {
  readonly atMs: number;
  /** In the venue's units. */
  readonly size: number;
  readonly price: number;
}

/**
 * The trades an immediate order's `size` fills in: split in whole lots over `tradesPerFill`
 * trades walking away from the mark, never past `limitPrice`.
 */
export function planTrades(input: {
  readonly venue: FakeVenue;
  readonly base: string;
  readonly side: 'buy' | 'sell';
  readonly size: number;
  readonly mark: number;
  readonly limitPrice: number | null;
  readonly ackMs: number;
  readonly behaviour: VenueBehaviour;
}): PlannedTrade[] {
  const { behaviour } = input;
  const lot = LOT_SIZES[input.venue];
  const lots = Math.round(input.size / lot);
  if (input.size <= 0) return [];
  if (behaviour.tradesPerFill <= 1 || lots <= 1) {
    return [{ atMs: input.ackMs + behaviour.fillDelayMs, size: input.size, price: input.mark }];
  }
  const count = Math.max(1, Math.min(behaviour.tradesPerFill, lots));
  const tick = TICK_SIZES[input.base] ?? 0.01;
  const direction = input.side === 'buy' ? 1 : -1;
  const trades: PlannedTrade[] = [];
  for (let index = 0; index < count; index += 1) {
    const share = Math.floor(lots / count) + (index < lots % count ? 1 : 0);
    let price = clean(input.mark + direction * index * behaviour.tradeStepTicks * tick);
    if (input.limitPrice !== null) {
      price = direction > 0 ? Math.min(price, input.limitPrice) : Math.max(price, input.limitPrice);
    }
    trades.push({
      atMs: input.ackMs + behaviour.fillDelayMs + index * behaviour.tradeSpacingMs,
      // Sizes off the lot grid keep their odd rest in the first trade.
      size: clean(share * lot + (index === 0 ? input.size - lots * lot : 0)),
      price,
    });
  }
  return trades;
}

/** The share of an IOC order that fills, in whole lots. */
export function iocFilledSize(size: number, venue: FakeVenue, behaviour: VenueBehaviour): number {
  if (behaviour.iocFillRatio >= 1) return size;
  const lot = LOT_SIZES[venue];
  return clean(Math.floor((size * behaviour.iocFillRatio) / lot + 1e-9) * lot);
}
