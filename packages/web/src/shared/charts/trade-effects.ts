import type { StrategyDetail, TradeEffect } from '@quantsquare/contracts';
import { type CurvePoint, tradeMarkers } from '../format/square-format';

/** What the fills of one marker did: a reversal is a close and an open of one side at once. */
export type MarkerEffect = TradeEffect | 'reverse';

export interface EffectMarker {
  timeMs: number;
  side: 'buy' | 'sell';
  effect: MarkerEffect;
}

/**
 * The chart's markers with what each did. Fills of one side on one point of the curve make one
 * marker (partial fills, or a reversal's close and open, no longer stack as look-alike copies);
 * one closing and opening at once is a reversal. A marker without an effect counts as an open.
 */
export function effectMarkers(
  trades: StrategyDetail['trades'],
  points: readonly CurvePoint[],
): EffectMarker[] {
  const byKey = new Map<string, EffectMarker>();
  for (const effect of ['open', 'close'] as const) {
    const subset = trades.filter((trade) => (trade.effect ?? 'open') === effect);
    for (const marker of tradeMarkers(subset, points)) {
      const key = `${marker.timeMs}:${marker.side}`;
      const seen = byKey.get(key);
      byKey.set(key, {
        ...marker,
        effect: seen && seen.effect !== effect ? 'reverse' : effect,
      });
    }
  }
  return [...byKey.values()].sort((a, b) => a.timeMs - b.timeMs);
}

/** The i18n key of a fill's side and effect (`strategy.trades.effects.*`). */
export function tradeEffectKey(side: 'buy' | 'sell', effect: TradeEffect | undefined) {
  return `${side}_${effect ?? 'open'}` as const;
}
