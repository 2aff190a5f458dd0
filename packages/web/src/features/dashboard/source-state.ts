import type { DataFreshness, MarketDataSource } from '@quantsquare/contracts';

export type SourceState = 'live' | 'delayed' | 'simulated';

/** Live when the exchange answers and the data is fresh, delayed when stale, else simulated. */
export function sourceState(
  source: MarketDataSource | null | undefined,
  freshness: Pick<DataFreshness, 'is_fresh'> | null | undefined,
): SourceState | null {
  if (!source) return null;
  if (source === 'simulated') return 'simulated';
  return freshness && !freshness.is_fresh ? 'delayed' : 'live';
}
