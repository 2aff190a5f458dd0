import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { applyFill, FLAT_POSITION } from '../position/pnl.js';
import {
  applyFillNumber,
  type LeaderFill,
  leaderWalletChange,
  simulateCopy,
} from './copy-simulation.js';

const MARKET = { amountStep: 0.001, minAmount: 0.001, minNotional: 5, priceStep: 0.1 };
const HOUR = 3_600_000;

/** A leader who buys 1 BTC at 50,000, adds at 51,000, and sells all at 53,000. */
const FILLS: LeaderFill[] = [
  { atMs: HOUR, orderId: 1, symbol: 'BTC/USDT', side: 'buy', amount: 0.6, price: 50_000, fee: 15 },
  { atMs: HOUR, orderId: 1, symbol: 'BTC/USDT', side: 'buy', amount: 0.4, price: 50_000, fee: 10 },
  {
    atMs: 2 * HOUR,
    orderId: 2,
    symbol: 'BTC/USDT',
    side: 'buy',
    amount: 1,
    price: 51_000,
    fee: 25,
  },
  {
    atMs: 3 * HOUR,
    orderId: 3,
    symbol: 'BTC/USDT',
    side: 'sell',
    amount: 2,
    price: 53_000,
    fee: 53,
  },
];

const base = {
  fills: FILLS,
  startBook: new Map<string, number>(),
  copyAmount: 1_000,
  leaderEquity: 100_000,
  marketOf: () => MARKET,
  slippageCapPercentOf: () => 0.5,
  slippageBps: 0,
  feeRate: 0,
  startMs: 0,
  endMs: 4 * HOUR,
};

describe('copy simulation', () => {
  it('copies each leader order once at copy_amount / leader equity', () => {
    const result = simulateCopy({ ...base, mode: 'normal' });
    expect(result.leaderChanges).toBe(3);
    expect(result.trades.map((t) => [t.side, t.amount, t.sizeAfter])).toEqual([
      ['buy', 0.01, 0.01],
      ['buy', 0.01, 0.02],
      ['sell', 0.02, 0],
    ]);
    // 0.01 × 3,000 + 0.01 × 2,000 = 50 USDT on 1,000.
    expect(result.returnPct).toBeCloseTo(5, 6);
  });

  it('reverse simulates the opposite return before fees', () => {
    const normal = simulateCopy({ ...base, mode: 'normal' });
    const reverse = simulateCopy({ ...base, mode: 'reverse' });
    expect(reverse.returnPct).toBeCloseTo(-normal.returnPct, 6);
    expect(reverse.trades.map((t) => t.side)).toEqual(['sell', 'sell', 'buy']);
  });

  it('skips a share under the venue minimum and charges fees and slippage', () => {
    const small = simulateCopy({ ...base, mode: 'normal', copyAmount: 5 });
    expect(small.trades).toHaveLength(0);
    expect(small.skippedOrders).toBe(2);
    const costly = simulateCopy({ ...base, mode: 'normal', feeRate: 0.0005, slippageBps: 10 });
    expect(costly.fees).toBeGreaterThan(0);
    expect(costly.slippageCost).toBeGreaterThan(0);
    expect(costly.returnPct).toBeLessThan(5);
  });

  it('does not join a position the leader held before the period on its reductions', () => {
    const result = simulateCopy({
      ...base,
      mode: 'normal',
      fills: FILLS.slice(3),
      startBook: new Map([['BTC/USDT', 2]]),
    });
    expect(result.trades).toHaveLength(0);
  });

  it("tells the leader's wallet change over its fills", () => {
    // Gross profit 1 × 3,000 + 1 × 2,000, fees 103.
    expect(leaderWalletChange(FILLS, new Map()).toNumber()).toBe(4_897);
  });
});

describe('the simulator position rule', () => {
  it.each([
    ['opens', [[0.5, 100, 0.1]]],
    [
      'adds at a weighted entry',
      [
        [0.5, 100, 0.1],
        [0.25, 130, 0.05],
      ],
    ],
    [
      'closes part',
      [
        [0.5, 100, 0.1],
        [-0.2, 120, 0.04],
      ],
    ],
    [
      'closes all',
      [
        [-0.5, 100, 0.1],
        [0.5, 90, 0.09],
      ],
    ],
    [
      'flips',
      [
        [0.5, 100, 0.1],
        [-0.8, 110, 0.16],
      ],
    ],
  ] as const)('%s as applyFill does', (_name, fills) => {
    let exact = FLAT_POSITION;
    let realizedExact = new Decimal(0);
    let held = { size: 0, entry: 0, entryFee: 0 };
    let realized = 0;
    for (const [amount, price, fee] of fills) {
      const applied = applyFill(exact, {
        amount: new Decimal(amount),
        price: new Decimal(price),
        fee: new Decimal(fee),
      });
      exact = applied.position;
      realizedExact = realizedExact.plus(applied.realizedPnl);
      const number = applyFillNumber(held, amount, price, fee);
      held = number.held;
      realized += number.realized;
    }
    expect(held.size).toBeCloseTo(exact.size.toNumber(), 10);
    expect(held.entry).toBeCloseTo(exact.entryPrice.toNumber(), 8);
    expect(held.entryFee).toBeCloseTo(exact.entryFee.toNumber(), 10);
    expect(realized).toBeCloseTo(realizedExact.toNumber(), 8);
  });
});
