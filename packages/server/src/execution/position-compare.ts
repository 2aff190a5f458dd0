import { Decimal } from 'decimal.js';
import type { ExchangeAccountRow } from '../db/schema/index.js';
import type { ExchangePosition } from '../exchange/exchange-client.js';
import type { OwnerPosition, PositionMismatch } from './execution.types.js';

/** Differences below this are rounding, not a missing order. */
const TOLERANCE = new Decimal('1e-9');

/**
 * The owners' positions against the exchange's, per symbol: one-way accounts by their net
 * position; hedge accounts side by side (the owners' longs against the exchange's long, their
 * shorts against its short).
 */
export function compareWithExchange(
  account: ExchangeAccountRow,
  book: readonly OwnerPosition[],
  held: readonly ExchangePosition[],
  onlySymbols?: readonly string[],
): PositionMismatch[] {
  const symbols = new Set([...book.map((p) => p.symbol), ...held.map((p) => p.symbol)]);
  const mismatches: PositionMismatch[] = [];
  for (const symbol of symbols) {
    if (onlySymbols && !onlySymbols.includes(symbol)) continue;
    const owners = book.filter((p) => p.symbol === symbol);
    const exchange = held.filter((p) => p.symbol === symbol);
    const sideSum = (side: 'long' | 'short') =>
      exchange
        .filter((p) => p.side === side)
        .reduce((sum, p) => sum.plus(p.amount), new Decimal(0));
    const exchangeLong = sideSum('long');
    const exchangeShort = sideSum('short');
    const ownersOf = (sign: number) =>
      owners
        .map((p) => new Decimal(p.size))
        .filter((size) => size.isNegative() === sign < 0 && !size.isZero())
        .reduce((sum, size) => sum.plus(size.abs()), new Decimal(0));
    const bookNet = owners.reduce((sum, p) => sum.plus(p.size), new Decimal(0));
    const exchangeNet = exchangeLong.minus(exchangeShort);
    const isOff =
      account.positionMode === 'hedge'
        ? ownersOf(1).minus(exchangeLong).abs().gt(TOLERANCE) ||
          ownersOf(-1).minus(exchangeShort).abs().gt(TOLERANCE)
        : bookNet.minus(exchangeNet).abs().gt(TOLERANCE);
    if (!isOff) continue;
    mismatches.push({
      account,
      symbol,
      bookSize: bookNet.toNumber(),
      exchangeSize: exchangeNet.toNumber(),
      owners: owners.map((p) => ({ owner: p.owner, size: Number(p.size) })),
    });
  }
  return mismatches;
}
