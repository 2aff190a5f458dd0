import { DEFAULT_SYMBOLS } from '@quantsquare/contracts';

/** Price level (USDT), daily volatility (log-return std) and volume per minute (base currency). */
export interface SymbolProfile {
  readonly basePrice: number;
  readonly dailyVolatility: number;
  readonly baseVolumePerMinute: number;
}

const profile = (basePrice: number, dailyVolatility: number, quoteVolumePerMinute: number) => ({
  basePrice,
  dailyVolatility,
  baseVolumePerMinute: quoteVolumePerMinute / basePrice,
});

/** Realistic levels for the usual swaps (late-2025 ranges). */
const PROFILES: Readonly<Record<string, SymbolProfile>> = {
  'BTC/USDT:USDT': profile(95_000, 0.025, 12_000_000),
  'ETH/USDT:USDT': profile(3_500, 0.035, 8_000_000),
  'DOGE/USDT:USDT': profile(0.3, 0.05, 1_200_000),
  'SOL/USDT:USDT': profile(200, 0.045, 2_500_000),
  'BNB/USDT:USDT': profile(600, 0.025, 600_000),
  'XRP/USDT:USDT': profile(2, 0.04, 1_500_000),
  'ADA/USDT:USDT': profile(0.8, 0.045, 400_000),
  'LINK/USDT:USDT': profile(20, 0.045, 300_000),
  'LTC/USDT:USDT': profile(100, 0.04, 250_000),
  'AVAX/USDT:USDT': profile(35, 0.05, 250_000),
};

/** The symbols the simulated feed lists for every exchange (the dashboard defaults first). */
export const SIMULATED_SYMBOLS: readonly string[] = [
  ...DEFAULT_SYMBOLS,
  ...Object.keys(PROFILES).filter(
    (symbol) => !(DEFAULT_SYMBOLS as readonly string[]).includes(symbol),
  ),
];

/** Any other symbol gets a generic level, scattered deterministically by `unit` in [0, 1). */
export function symbolProfile(symbol: string, unit: number): SymbolProfile {
  return PROFILES[symbol] ?? profile(1 + 99 * unit, 0.05, 100_000);
}
