import { Decimal } from 'decimal.js';
import { maxDrawdownPercent } from '../backtest/backtest-metrics.js';
import {
  applyFill,
  type BookPosition,
  FLAT_POSITION,
  grossPnl,
  grossPnlDecimal,
  slippedPrice,
  tradeFee,
} from '../position/pnl.js';
import { type CopyDecision, type CopyMarket, copyDecision, copyJoins } from './copy-decision.js';
import { type CopyDirection, copyRatio } from './copy-target.js';

// The copy simulator (pure): replays a leader's recorded fills as the live copy engine would have
// copied them — each leader order is one change, decided by the engine's `copyDecision` (sizing
// from the amount, reverse, the follower venue's step and minimums, the entry cap) — and fills the
// follower's orders with the venue's slippage and fee model. No I/O: the caller loads the fills.

/** One recorded leader fill. Fills of one order (partial fills) are one leader change. */
export interface LeaderFill {
  readonly atMs: number;
  /** The leader's order (fills with the same one in a row are one change). */
  readonly orderId: number;
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  /** Base-asset quantity, positive. */
  readonly amount: Decimal.Value;
  readonly price: number;
  /** Fee in quote (USDT). */
  readonly fee: Decimal.Value;
}

export interface CopySimulationInput {
  /** The leader's fills in the period, oldest first. */
  readonly fills: readonly LeaderFill[];
  /** The leader's signed size per symbol when the period starts (what the copy does not join). */
  readonly startBook: ReadonlyMap<string, Decimal.Value>;
  readonly copyAmount: number;
  /** The leader's equity at the period's start (the ratio's base, as a copy started then). */
  readonly leaderEquity: Decimal.Value;
  readonly mode: CopyDirection;
  readonly marketOf: (symbol: string) => CopyMarket;
  readonly slippageCapPercentOf: (symbol: string) => number;
  /** The follower's fills are this many bps worse than the leader's price (the venue's model). */
  readonly slippageBps: number;
  /** Taker fee per side on the follower's venue. */
  readonly feeRate: number;
  readonly startMs: number;
  readonly endMs: number;
  /** The curve answered keeps at most this many points (drawdown is over every point). */
  readonly maxPoints?: number;
}

export interface SimulatedTrade {
  readonly atMs: number;
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly action: string;
  /** Base-asset quantity, positive. */
  readonly amount: number;
  readonly price: number;
  readonly leaderPrice: number;
  readonly fee: number;
  /** The follower's signed size after the order. */
  readonly sizeAfter: number;
}

export interface CopySimulationResult {
  readonly equityCurve: readonly { readonly atMs: number; readonly equity: number }[];
  readonly finalEquity: number;
  readonly returnPct: number;
  readonly maxDrawdownPct: number;
  readonly trades: readonly SimulatedTrade[];
  /** Leader changes whose share was under the follower venue's minimum (no order). */
  readonly skippedOrders: number;
  /** Entries the slippage cap refused (an IOC that would fill nothing). */
  readonly cappedOrders: number;
  readonly fees: number;
  /** What the follower paid against the leader's prices (slippage × amount), USDT. */
  readonly slippageCost: number;
  readonly ratio: number;
  readonly leaderChanges: number;
}

const DEFAULT_MAX_POINTS = 400;

/** The leader's changes: consecutive fills of one order merged (signed delta, last price). */
function leaderChanges(fills: readonly LeaderFill[]) {
  const changes: {
    atMs: number;
    symbol: string;
    delta: Decimal;
    price: number;
  }[] = [];
  let lastOrder: number | null = null;
  for (const fill of fills) {
    const signed = new Decimal(fill.amount).times(fill.side === 'buy' ? 1 : -1);
    const last = changes.at(-1);
    if (last && lastOrder === fill.orderId && last.symbol === fill.symbol) {
      last.delta = last.delta.plus(signed);
      last.price = fill.price;
      last.atMs = fill.atMs;
    } else {
      changes.push({ atMs: fill.atMs, symbol: fill.symbol, delta: signed, price: fill.price });
    }
    lastOrder = fill.orderId;
  }
  return changes;
}

function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const stride = (points.length - 1) / (max - 1);
  const kept: T[] = [];
  for (let i = 0; i < max; i++) kept.push(points[Math.round(i * stride)] as T);
  return kept;
}

/** A follower's position in number form (a simulation, like the backtest's loop, runs on numbers). */
interface Held {
  readonly size: number;
  readonly entry: number;
  readonly entryFee: number;
}
const FLAT: Held = { size: 0, entry: 0, entryFee: 0 };

/**
 * `applyFill`'s rule on numbers: adding averages the entry; an opposite fill closes up to the held
 * size (profit net of the closed part's entry fee and its share of this fee) and opens the rest.
 */
export function applyFillNumber(
  held: Held,
  amount: number,
  price: number,
  fee: number,
): { held: Held; realized: number } {
  const size = Math.abs(held.size);
  const traded = Math.abs(amount);
  if (size === 0 || Math.sign(held.size) === Math.sign(amount)) {
    const next = held.size + amount;
    return {
      held: {
        size: next,
        entry: (size * held.entry + traded * price) / Math.abs(next),
        entryFee: held.entryFee + fee,
      },
      realized: 0,
    };
  }
  const closed = Math.min(size, traded);
  const closedEntryFee = (held.entryFee * closed) / size;
  const closingFee = (fee * closed) / traded;
  const realized =
    grossPnl(Math.sign(held.size), closed, held.entry, price) - closedEntryFee - closingFee;
  const next = held.size + amount;
  if (size > traded)
    return { held: { ...held, size: next, entryFee: held.entryFee - closedEntryFee }, realized };
  if (traded > size)
    return { held: { size: next, entry: price, entryFee: fee - closingFee }, realized };
  return { held: FLAT, realized };
}

const round = (value: number, places: number) => Number(value.toFixed(places));

/** The simulation's answer: its curve thinned, its figures rounded. */
function resultOf(
  input: CopySimulationInput,
  points: readonly { atMs: number; equity: number }[],
  finalEquity: number,
  tallies: Pick<
    CopySimulationResult,
    | 'trades'
    | 'skippedOrders'
    | 'cappedOrders'
    | 'fees'
    | 'slippageCost'
    | 'ratio'
    | 'leaderChanges'
  >,
): CopySimulationResult {
  return {
    equityCurve: thin(points, input.maxPoints ?? DEFAULT_MAX_POINTS).map((p) => ({
      atMs: p.atMs,
      equity: round(p.equity, 6),
    })),
    finalEquity: round(finalEquity, 6),
    returnPct:
      input.copyAmount > 0
        ? round(((finalEquity - input.copyAmount) / input.copyAmount) * 100, 4)
        : 0,
    maxDrawdownPct: round(
      maxDrawdownPercent(
        Float64Array.from(points, (p) => p.equity),
        input.copyAmount,
      ),
      4,
    ),
    ...tallies,
    fees: round(tallies.fees, 8),
    slippageCost: round(tallies.slippageCost, 8),
  };
}

export function simulateCopy(input: CopySimulationInput): CopySimulationResult {
  const ratio = copyRatio(input.copyAmount, input.leaderEquity);
  const leader = new Map<string, Decimal>();
  for (const [symbol, size] of input.startBook) leader.set(symbol, new Decimal(size));
  /** The follower's open positions (number forms), by symbol. */
  const book = new Map<string, Held>();
  const marks = new Map<string, number>();
  let fees = 0;
  let slippageCost = 0;
  let skippedOrders = 0;
  let cappedOrders = 0;
  const trades: SimulatedTrade[] = [];
  const points: { atMs: number; equity: number }[] = [
    { atMs: input.startMs, equity: input.copyAmount },
  ];

  let realizedNumber = 0;
  const equityNow = () => {
    let unrealized = 0;
    for (const [symbol, position] of book) {
      const mark = marks.get(symbol) ?? position.entry;
      unrealized += (mark - position.entry) * position.size - position.entryFee;
    }
    return input.copyAmount + realizedNumber + unrealized;
  };

  const changes = leaderChanges(input.fills);
  for (const change of changes) {
    const previous = leader.get(change.symbol) ?? new Decimal(0);
    const leaderSize = previous.plus(change.delta);
    leader.set(change.symbol, leaderSize);
    marks.set(change.symbol, change.price);
    const position = book.get(change.symbol) ?? FLAT;
    if (
      copyJoins({
        leaderSize,
        previousLeaderSize: previous,
        followerSize: position.size,
        isLateJoin: false,
      })
    ) {
      const decision: CopyDecision = copyDecision({
        leaderSize,
        ratio,
        mode: input.mode,
        followerSize: position.size,
        market: input.marketOf(change.symbol),
        leaderPrice: change.price,
        slippageCapPercent: input.slippageCapPercentOf(change.symbol),
      });
      if (decision.kind === 'below_minimum') skippedOrders++;
      if (decision.kind === 'orders') {
        let held = position;
        for (const leg of decision.legs) {
          // Sizes are whole steps (toFixed'd by the rounding): their difference, to the step's places.
          const delta = Number((leg.targetSize - held.size).toFixed(12));
          if (delta === 0) continue;
          const isBuy = delta > 0;
          const price = slippedPrice(change.price, isBuy, input.slippageBps);
          // An IOC entry fills nothing beyond its cap (the live engine's `capped` miss).
          if (leg.priceCap !== null && (isBuy ? price > leg.priceCap : price < leg.priceCap)) {
            cappedOrders++;
            break;
          }
          const amount = Math.abs(delta);
          const fee = tradeFee(amount * price, input.feeRate);
          const applied = applyFillNumber(held, delta, price, fee);
          held = { ...applied.held, size: leg.targetSize };
          realizedNumber += applied.realized;
          fees += fee;
          slippageCost += Math.abs(price - change.price) * amount;
          trades.push({
            atMs: change.atMs,
            symbol: change.symbol,
            side: isBuy ? 'buy' : 'sell',
            action: leg.action,
            amount,
            price,
            leaderPrice: change.price,
            fee,
            sizeAfter: leg.targetSize,
          });
        }
        if (held.size === 0) book.delete(change.symbol);
        else book.set(change.symbol, held);
      }
    }
    points.push({ atMs: change.atMs, equity: equityNow() });
  }
  const finalEquity = equityNow();
  points.push({
    atMs: Math.max(input.endMs, points.at(-1)?.atMs ?? input.endMs),
    equity: finalEquity,
  });
  return resultOf(input, points, finalEquity, {
    trades,
    skippedOrders,
    cappedOrders,
    fees,
    slippageCost,
    ratio: ratio.toNumber(),
    leaderChanges: changes.length,
  });
}

/**
 * How the leader's wallet moved over its fills (realised profit before fees, minus every fee),
 * from its book at the start (`startBook`: signed size and entry per symbol): the wallet at the
 * period's start is today's minus this, when no snapshot says it.
 */
export function leaderWalletChange(
  fills: readonly LeaderFill[],
  startBook: ReadonlyMap<
    string,
    { readonly size: Decimal.Value; readonly entryPrice: Decimal.Value }
  >,
): Decimal {
  const book = new Map<string, BookPosition>();
  for (const [symbol, held] of startBook) {
    book.set(symbol, {
      size: new Decimal(held.size),
      entryPrice: new Decimal(held.entryPrice),
      entryFee: new Decimal(0),
    });
  }
  let change = new Decimal(0);
  for (const fill of fills) {
    const position = book.get(fill.symbol) ?? FLAT_POSITION;
    const amount = new Decimal(fill.amount).times(fill.side === 'buy' ? 1 : -1);
    const applied = applyFill(position, {
      amount,
      price: new Decimal(fill.price),
      fee: new Decimal(fill.fee),
    });
    if (applied.closedAmount.gt(0)) {
      change = change.plus(
        grossPnlDecimal(
          applied.closedDirection,
          applied.closedAmount,
          applied.closedEntryPrice,
          fill.price,
        ),
      );
    }
    change = change.minus(fill.fee);
    book.set(fill.symbol, applied.position);
  }
  return change;
}
