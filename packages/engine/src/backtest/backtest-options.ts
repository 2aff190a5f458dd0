import { PLATFORM_FEE_RATE } from '@quantsquare/contracts';
import type { BacktestAssumptions, BacktestOptions, TradeDirection } from './backtest.types.js';

export const DEFAULT_INITIAL_BALANCE = 10_000;

export interface ResolvedOptions {
  readonly feeRate: number;
  readonly slippageBps: number;
  readonly stopLossPercent: number | null;
  readonly takeProfitPercent: number | null;
  readonly trailingStopPercent: number | null;
  readonly direction: TradeDirection;
  readonly leverage: number;
  readonly positionSizeFraction: number;
  readonly initialBalance: number;
}

export function resolveOptions(options: BacktestOptions): ResolvedOptions {
  const resolved = {
    feeRate: options.feeRate ?? PLATFORM_FEE_RATE,
    slippageBps: options.slippageBps ?? 0,
    stopLossPercent: options.stopLossPercent || null,
    takeProfitPercent: options.takeProfitPercent || null,
    trailingStopPercent: options.trailingStopPercent || null,
    direction: options.direction ?? 'long_short',
    leverage: options.leverage ?? 1,
    positionSizeFraction: options.positionSizeFraction ?? 1,
    initialBalance: options.initialBalance ?? DEFAULT_INITIAL_BALANCE,
  };
  const check = (isValid: boolean, message: string) => {
    if (!isValid) throw new RangeError(message);
  };
  check(resolved.feeRate >= 0 && resolved.feeRate < 1, 'feeRate must be in [0, 1)');
  check(
    resolved.slippageBps >= 0 && resolved.slippageBps < 10_000,
    'slippageBps must be in [0, 10000)',
  );
  check(resolved.leverage > 0, 'leverage must be positive');
  check(
    resolved.positionSizeFraction > 0 && resolved.positionSizeFraction <= 1,
    'positionSizeFraction must be in (0, 1]',
  );
  check(resolved.initialBalance > 0, 'initialBalance must be positive');
  check((resolved.stopLossPercent ?? 0) >= 0, 'stopLossPercent must not be negative');
  check((resolved.takeProfitPercent ?? 0) >= 0, 'takeProfitPercent must not be negative');
  check(
    (resolved.trailingStopPercent ?? 0) >= 0 && (resolved.trailingStopPercent ?? 0) < 100,
    'trailingStopPercent must be in [0, 100)',
  );
  return resolved;
}

/** The rules the run followed, in words, for every answer (ARCHITECTURE: list the assumptions). */
export function describeAssumptions(
  settings: ResolvedOptions,
  fundingSource?: string,
  fundingNote?: string,
): BacktestAssumptions {
  return {
    initial_balance: settings.initialBalance,
    fee_rate: settings.feeRate,
    slippage_bps: settings.slippageBps,
    leverage: settings.leverage,
    position_size_fraction: settings.positionSizeFraction,
    direction: settings.direction,
    stop_loss_percent: settings.stopLossPercent,
    take_profit_percent: settings.takeProfitPercent,
    trailing_stop_percent: settings.trailingStopPercent,
    fill_rule:
      'Signals are decided on a closed candle and filled at the next candle open; a signal on the last candle is not traded. Market fills pay slippage against the trade.',
    sizing_rule:
      'Each position uses position_size_fraction of equity as margin; notional = margin × leverage; the fee is fee_rate × notional on entry and on exit. One position at a time; no liquidation model.',
    stop_rule:
      'Stop-loss and take-profit are percentages from the entry fill, checked inside every candle from the entry candle on; if both are touched in one candle the stop-loss wins; a candle opening beyond a level exits at its open. Take-profit fills at its price without slippage. A trailing stop follows the best price since entry at the level set by the candles before, and exits as a stop-loss.',
    end_of_data_rule:
      'A position still open after the last candle is closed at the last close (reason end_of_data), with fee and slippage.',
    sharpe_rule:
      'Per-candle returns of the equity marked to close, risk-free rate 0, sample standard deviation, annualised by √(candles per 365-day year).',
    funding_source: fundingSource ?? null,
    funding_incomplete: fundingSource !== undefined && fundingNote !== undefined,
    funding_rule:
      fundingSource === undefined
        ? 'No funding charged.'
        : `Funding (${fundingSource} rates) is charged at each 8-hour mark (00:00, 08:00, 16:00 UTC) on the position held then, before that candle open's fills: notional at the open × rate, paid by a long for a positive rate and received by a short; it is in the equity curve and the final balance (funding_paid).${fundingNote ? ` ${fundingNote}` : ''}`,
  };
}
