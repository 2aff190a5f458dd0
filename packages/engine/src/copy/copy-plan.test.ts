import { describe, expect, it } from 'vitest';
import {
  copiedPnl,
  decisionKey,
  filledDelta,
  leaderChangedAtMs,
  missRetryBackoffMs,
  netPositions,
  stopKey,
} from './copy-plan.js';

const row = (symbol: string, size: string, entryPrice: string, entryFee = '0', realized = '0') => ({
  symbol,
  size,
  entryPrice,
  entryFee,
  realizedPnl: realized,
});

describe('copy planning', () => {
  it('keys a decision by the change and the sizing, never by a try', () => {
    const relation = { copyAmount: '100.000', leaderEquityBase: '10000.0' };
    expect(decisionKey('ETH|17|2', relation)).toBe('ETH|17|2|100/10000');
    expect(decisionKey('ETH|17|2', { ...relation, copyAmount: '200' })).toBe('ETH|17|2|200/10000');
    expect(stopKey('ETH', new Date(5))).toBe('stop|ETH|5');
    expect(stopKey('ETH', null)).toBe('stop|ETH|open');
  });

  it.each([
    ['a first miss waits 5 s', 1, 5_000],
    ['the third 20 s', 3, 20_000],
    ['never more than 10 minutes', 20, 600_000],
  ])('%s', (_name, attempts, waitMs) => {
    expect(missRetryBackoffMs(attempts)).toBe(waitMs);
  });

  it.each([
    ['flat book: realised only', [row('ETH', '0', '0', '0', '-1.5')], {}, '-1.5'],
    ['long marked up, less its entry fee', [row('ETH', '2', '100', '0.2')], { ETH: 110 }, '19.8'],
    ['short marked up loses', [row('ETH', '-1', '100', '0.1')], { ETH: 110 }, '-10.1'],
    ['no mark: valued at its entry', [row('BTC', '1', '50000', '5', '3')], {}, '-2'],
  ] as const)('copied P&L: %s', (_name, book, marks, pnl) => {
    expect(copiedPnl(book, new Map(Object.entries(marks))).toString()).toBe(pnl);
  });

  it('sums what orders filled, signed by side', () => {
    const orders = [
      { filledAmount: '0.5', side: 'buy' as const },
      { filledAmount: '0.2', side: 'sell' as const },
      { filledAmount: null, side: 'buy' as const },
    ];
    expect(filledDelta(orders).toString()).toBe('0.3');
  });

  it("nets a hedged leader's two sides per symbol", () => {
    const net = netPositions([
      { symbol: 'ETH', amount: 2, side: 'long', entryPrice: 100 },
      { symbol: 'ETH', amount: 0.5, side: 'short', entryPrice: 101 },
      { symbol: 'BTC', amount: 1, side: 'short', entryPrice: 50_000 },
    ]);
    expect(net.get('ETH')?.size.toString()).toBe('1.5');
    expect(net.get('BTC')?.size.toString()).toBe('-1');
  });

  it('reads when the book changed from its version', () => {
    expect(leaderChangedAtMs('1700000000000|2|book')).toBe(1_700_000_000_000);
    expect(leaderChangedAtMs('none')).toBe(0);
  });
});
