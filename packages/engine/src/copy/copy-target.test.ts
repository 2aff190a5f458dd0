import { describe, expect, it } from 'vitest';
import {
  copyEfficiency,
  copyRatio,
  copyTarget,
  entryPriceCap,
  isWithinEntryDistance,
  leaderDriftPercent,
  slippageBps,
} from './copy-target.js';

const BINANCE = { amountStep: 0.001, minAmount: 0.001, minNotional: 5 };
const OKX = { amountStep: 0.01, minAmount: 0.01, minNotional: 0 };

describe('copy targets', () => {
  it.each([
    ['normal: the leader × ratio', 0.5, 0.01, 'normal', BINANCE, 0.005],
    ['reverse: negated', 0.5, 0.01, 'reverse', BINANCE, -0.005],
    ['a short leader reversed is long', -1.2, 0.01, 'reverse', BINANCE, 0.012],
    ['OKX: rounded toward zero to whole 0.01-BTC contracts', 0.25, 0.1, 'normal', OKX, 0.02],
    ['flat leader: flat follower', 0, 0.5, 'normal', OKX, 0],
  ] as const)('%s', (_name, leaderSize, ratio, mode, market, size) => {
    expect(copyTarget({ leaderSize, ratio, mode, market, price: 50_000 })).toMatchObject({
      ok: true,
      size,
    });
  });

  it('refuses a share below the minimum amount or notional', () => {
    expect(
      copyTarget({ leaderSize: 0.25, ratio: 0.01, mode: 'normal', market: OKX }),
    ).toMatchObject({ ok: false, reason: 'below_minimum', limit: 'amount', minimum: 0.01 });
    expect(
      copyTarget({ leaderSize: 0.1, ratio: 0.01, mode: 'normal', market: BINANCE, price: 2_000 }),
    ).toMatchObject({ ok: false, limit: 'notional', minimum: 5 });
  });

  it('takes the ratio against the leader equity (none without equity)', () => {
    expect(copyRatio(100, 10_000).toNumber()).toBe(0.01);
    expect(copyRatio(100, 0).toNumber()).toBe(0);
  });

  it('caps entries by the slippage from the leader fill, on the price step', () => {
    expect(entryPriceCap(50_000, 'buy', 0.5, 0.1)).toBe(50_250);
    expect(entryPriceCap(50_000, 'sell', 0.5, 0.1)).toBe(49_750);
    expect(entryPriceCap(1.2345, 'buy', 1.5, 0.0001)).toBe(1.253);
  });

  it('measures slippage against the follower, entry distance and efficiency', () => {
    expect(slippageBps('buy', 50_000, 50_010)).toBe(2);
    expect(slippageBps('sell', 50_000, 50_010)).toBe(-2);
    expect(isWithinEntryDistance(50_000, 50_400, 1)).toBe(true);
    expect(isWithinEntryDistance(50_000, 52_000, 1)).toBe(false);
    expect(copyEfficiency(0.05, 0.1, 'normal')).toBe(0.5);
    expect(copyEfficiency(0.05, 0, 'normal')).toBeNull();
    expect(copyEfficiency(0.05, 0, 'reverse')).toBeNull();
    // A reverse copy aims at the leader's opposite: +4% while the leader lost 5% is 0.8 of it;
    // losing 7% while the leader lost 5% is −1.4, not a 140% success.
    expect(copyEfficiency(0.04, -0.05, 'reverse')).toBe(0.8);
    expect(copyEfficiency(-0.07, -0.05, 'reverse')).toBe(-1.4);
    expect(copyEfficiency(-0.07, -0.05, 'normal')).toBe(1.4);
  });

  it("measures the leader's drift against the copy: a normal copy from the peak, a reverse one from the trough", () => {
    const book = { peak: 11_000, trough: 9_500, equity: 10_450 };
    // Normal: 11,000 → 10,450 is a 5% drawdown.
    expect(leaderDriftPercent({ ...book, mode: 'normal' })).toBeCloseTo(5, 10);
    // Reverse: 9,500 → 10,450 is a 10% rise against the reverse copier.
    expect(leaderDriftPercent({ ...book, mode: 'reverse' })).toBeCloseTo(10, 10);
    // At a new high a normal copy has no drift; at a new low a reverse one has none.
    expect(
      leaderDriftPercent({ peak: 10_000, trough: 9_000, equity: 10_000, mode: 'normal' }),
    ).toBe(0);
    expect(
      leaderDriftPercent({ peak: 10_000, trough: 9_000, equity: 9_000, mode: 'reverse' }),
    ).toBe(0);
    expect(leaderDriftPercent({ peak: 0, trough: 0, equity: 5, mode: 'normal' })).toBe(0);
    expect(leaderDriftPercent({ peak: 0, trough: 0, equity: 5, mode: 'reverse' })).toBe(0);
  });
});
