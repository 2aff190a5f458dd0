// Deposits and withdrawals are not reported by the exchanges' trading APIs, so they are inferred:
// between two hourly marks the wallet (equity − unrealised P&L) moves by what trading realised
// (net of fees) plus what came in or went out. The rest, when it is more than noise (funding,
// rounding), is an external flow.
import type { CashFlow } from './strategy-metrics.js';

export interface WalletMark {
  readonly timeMs: number;
  /** Equity, unrealised P&L included. */
  readonly equity: number;
  /** Unrealised P&L of the open positions at the mark. */
  readonly unrealizedPnl: number;
  /** Realised P&L of all fills up to the mark, fees deducted (cumulative). */
  readonly realizedPnlCum: number;
}

export interface FlowThresholds {
  /** Residuals smaller than this many USDT are noise. */
  readonly minAmount: number;
  /** …or smaller than this fraction of the previous equity (funding payments are ~0.01–0.1%). */
  readonly minFraction: number;
}

export const DEFAULT_FLOW_THRESHOLDS: FlowThresholds = { minAmount: 1, minFraction: 0.005 };

/** The external flows between consecutive marks, each dated at the later mark. */
export function inferCashFlows(
  marks: readonly WalletMark[],
  thresholds: FlowThresholds = DEFAULT_FLOW_THRESHOLDS,
): CashFlow[] {
  const sorted = [...marks].sort((a, b) => a.timeMs - b.timeMs);
  const flows: CashFlow[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!;
    const after = sorted[i]!;
    const walletChange =
      after.equity - after.unrealizedPnl - (before.equity - before.unrealizedPnl);
    const residual = walletChange - (after.realizedPnlCum - before.realizedPnlCum);
    const threshold = Math.max(
      thresholds.minAmount,
      thresholds.minFraction * Math.abs(before.equity),
    );
    if (Math.abs(residual) >= threshold) {
      flows.push({ timeMs: after.timeMs, amount: Math.round(residual * 1e8) / 1e8 });
    }
  }
  return flows;
}
