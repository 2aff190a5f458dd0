// Markets shared by the ccxt clients of one venue. Every account has a ccxt instance of its own
// (its keys, its rate limiter), and each used to download and parse the venue's whole market
// list on its first call: a thousand followers' first copied order meant a thousand
// exchangeInfo downloads. The list is public and the same for every account, so it is loaded
// once per venue (concurrent askers share the load) and kept for a while; each instance then
// only indexes it (ccxt setMarkets). The venue's HTTP transport (one keep-alive pool) is kept here
// too: see ccxt-transport.ts.
import type { CcxtTransport } from './ccxt-transport.js';

/** Markets and currencies as a loaded ccxt instance holds them. */
export interface LoadedMarkets {
  readonly markets: Record<string, unknown>;
  readonly currencies: Record<string, unknown> | undefined;
}

export interface CcxtMarketCache {
  /** The venue's markets: from the cache while fresh, else from `load` (one load at a time). */
  get(venue: string, load: () => Promise<LoadedMarkets>): Promise<LoadedMarkets>;
  /** The transport the venue's clients send through, once one client has loaded it. */
  transport(venue: string): CcxtTransport | undefined;
  /** Keeps a loaded client's transport for the venue's other clients (the first one stays). */
  keepTransport(venue: string, transport: CcxtTransport): void;
}

/** How long a venue's market list is kept: listings and precisions change rarely. */
export const MARKET_CACHE_TTL_MS = 60 * 60_000;

export function createCcxtMarketCache(
  options: { ttlMs?: number; now?: () => number } = {},
): CcxtMarketCache {
  const ttlMs = options.ttlMs ?? MARKET_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { loading: Promise<LoadedMarkets>; atMs: number }>();
  const transports = new Map<string, CcxtTransport>();
  return {
    transport: (venue) => transports.get(venue),
    keepTransport(venue, transport) {
      if (!transports.has(venue)) transports.set(venue, transport);
    },
    get(venue, load) {
      const entry = entries.get(venue);
      if (entry && now() - entry.atMs < ttlMs) return entry.loading;
      const loading = load();
      entries.set(venue, { loading, atMs: now() });
      // A failed load is not kept: the next asker tries again.
      loading.catch(() => {
        if (entries.get(venue)?.loading === loading) entries.delete(venue);
      });
      return loading;
    },
  };
}
