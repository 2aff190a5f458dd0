import { SYNTHETIC_CURVE_BASE, SYNTHETIC_CURVE_DAYS } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { abbreviateNumber } from '../src/shared/format/money';
import {
  copyButtonState,
  copyFigureTexts,
  drawdownShown,
  equityPoints,
  formatChartTime,
  formatTradeTime,
  initialOf,
  pageItems,
  parseRouteId,
  prependTrade,
  relativeTime,
  sparklinePath,
  syntheticCurve,
  toEpochMs,
  tradeMarkers,
  visibleLength,
} from '../src/shared/format/square-format';

describe('abbreviateNumber', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [12.345, '12.35'],
    [1000, '1k'],
    [1234, '1.2k'],
    [-15_600, '-15.6k'],
    [999_949, '999.9k'],
    [999_950, '1M'],
    [2_500_000, '2.5M'],
    [1_234_000_000, '1,234M'],
  ])('shows %d as %s', (value, text) => {
    expect(abbreviateNumber(value, 'en')).toBe(text);
  });

  it('shows a dash for what is not a number', () => {
    expect(abbreviateNumber(null, 'en')).toBe('—');
    expect(abbreviateNumber(Number.NaN, 'en')).toBe('—');
  });
});

describe('pageItems', () => {
  it('lists every page up to seven', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageItems(1, 0)).toEqual([]);
  });

  it('puts an ellipsis before the last page near the start', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 'gap-end', 20]);
    expect(pageItems(4, 20)).toEqual([1, 2, 3, 4, 5, 6, 'gap-end', 20]);
  });

  it('puts an ellipsis after the first page near the end', () => {
    expect(pageItems(20, 20)).toEqual([1, 'gap-start', 15, 16, 17, 18, 19, 20]);
    expect(pageItems(17, 20)).toEqual([1, 'gap-start', 15, 16, 17, 18, 19, 20]);
  });

  it('centres the current page with ellipses on both sides in the middle', () => {
    expect(pageItems(10, 20)).toEqual([1, 'gap-start', 8, 9, 10, 11, 12, 'gap-end', 20]);
    expect(pageItems(5, 20)).toEqual([1, 'gap-start', 3, 4, 5, 6, 7, 'gap-end', 20]);
  });

  it('never shows more than seven page numbers and always the current one', () => {
    for (let total = 1; total <= 30; total += 1) {
      for (let page = 1; page <= total; page += 1) {
        const numbers = pageItems(page, total).filter((item) => typeof item === 'number');
        expect(numbers.length).toBeLessThanOrEqual(7);
        expect(numbers).toContain(page);
        expect(numbers).toContain(1);
        expect(numbers).toContain(total);
      }
    }
  });
});

describe('toEpochMs and equityPoints', () => {
  it('treats values above 1e10 as milliseconds and the rest as seconds', () => {
    expect(toEpochMs(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toEpochMs(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(toEpochMs('2024-01-02T00:00:00Z')).toBe(Date.UTC(2024, 0, 2));
    expect(toEpochMs('nonsense')).toBeNull();
    expect(toEpochMs(-5)).toBeNull();
  });

  it('drops invalid entries, reads equity or value, and sorts ascending', () => {
    const points = equityPoints([
      { time: 1_700_000_600, equity: 10_100 },
      { time: 1_700_000_000_000, value: 10_000 },
      { time: 'bad', equity: 1 },
      { time: 1_700_001_800, equity: 'NaN' },
      null,
      { time: '2023-11-14T22:33:20Z', value: '10050' },
    ]);
    expect(points.map((p) => p.value)).toEqual([10_000, 10_100, 10_050]);
  });
});

describe('syntheticCurve', () => {
  const now = Date.UTC(2025, 0, 31);

  it('draws 30 daily points from 10,000 to the total return, the same every time', () => {
    const curve = syntheticCurve(42, 25, now);
    expect(curve).toHaveLength(SYNTHETIC_CURVE_DAYS);
    expect(curve[0]?.value).toBeCloseTo(SYNTHETIC_CURVE_BASE, 6);
    expect(curve.at(-1)?.value).toBeCloseTo(12_500, 6);
    expect(curve.at(-1)?.timeMs).toBe(now);
    expect(syntheticCurve(42, 25, now)).toEqual(curve);
    expect(syntheticCurve(43, 25, now)).not.toEqual(curve);
  });

  it('stays flat around the base without a return', () => {
    const curve = syntheticCurve(7, null, now);
    expect(curve.at(-1)?.value).toBeCloseTo(SYNTHETIC_CURVE_BASE, 6);
  });
});

describe('sparklinePath', () => {
  it('spans the box from the lowest to the highest value', () => {
    expect(sparklinePath([1, 3, 2], 102, 22)).toBe('M1.0 21.0 L51.0 1.0 L101.0 11.0');
  });

  it('draws a flat series along the middle and nothing without values', () => {
    expect(sparklinePath([5, 5], 12, 10)).toBe('M1.0 5.0 L11.0 5.0');
    expect(sparklinePath([], 10, 10)).toBe('');
    expect(sparklinePath([7], 12, 10)).toBe('M1.0 5.0 L11.0 5.0');
  });
});

describe('tradeMarkers', () => {
  const hour = 3_600_000;
  const t0 = Date.UTC(2025, 0, 1);
  const points = [
    { timeMs: t0, value: 1 },
    { timeMs: t0 + hour, value: 2 },
    { timeMs: t0 + 2 * hour, value: 3 },
  ];

  it('moves each trade onto the first equity point at or after it (the last one after the curve)', () => {
    expect(
      tradeMarkers(
        [
          { timestamp: (t0 + 1.5 * hour) / 1000, type: 'sell' },
          { time: t0 + hour, type: 'buy' },
          { timestamp: new Date(t0 + 9 * hour).toISOString(), type: 'buy' },
        ],
        points,
      ),
    ).toEqual([
      { timeMs: t0 + hour, side: 'buy' },
      { timeMs: t0 + 2 * hour, side: 'sell' },
      { timeMs: t0 + 2 * hour, side: 'buy' },
    ]);
  });

  it('drops trades before the curve, without a side, or without a time', () => {
    expect(
      tradeMarkers(
        [
          { timestamp: t0 - hour, type: 'buy' },
          { timestamp: t0 + hour, type: 'hold' },
          { type: 'sell' },
        ],
        points,
      ),
    ).toEqual([]);
    expect(tradeMarkers([{ timestamp: t0, type: 'buy' }], [])).toEqual([]);
  });
});

describe('times at UTC+8', () => {
  it('formats chart labels as MM/DD HH:mm and trade times with seconds', () => {
    const instant = Date.UTC(2025, 11, 31, 17, 5, 9); // 01:05:09 on 1 January at UTC+8
    expect(formatChartTime(instant)).toBe('01/01 01:05');
    expect(formatTradeTime(instant)).toBe('01/01 01:05:09');
  });

  it('says how long ago: just now, minutes, hours, days up to a week, then a date', () => {
    const now = Date.UTC(2025, 5, 10, 12);
    expect(relativeTime(now - 59_000, now)).toEqual({ unit: 'justNow' });
    expect(relativeTime(now + 5000, now)).toEqual({ unit: 'justNow' });
    expect(relativeTime(now - 5 * 60_000, now)).toEqual({ unit: 'minutes', count: 5 });
    expect(relativeTime(now - 3 * 3_600_000, now)).toEqual({ unit: 'hours', count: 3 });
    expect(relativeTime(now - 6 * 86_400_000, now)).toEqual({ unit: 'days', count: 6 });
    expect(relativeTime(now - 7 * 86_400_000, now)).toEqual({
      unit: 'date',
      timeMs: now - 7 * 86_400_000,
    });
  });
});

describe('prependTrade', () => {
  const trade = (id: number) => ({ id: String(id), symbol: 'BTC/USDT:USDT' });

  it('puts the new trade first and keeps the latest twenty', () => {
    const list = Array.from({ length: 20 }, (_, i) => trade(20 - i));
    const next = prependTrade(list, trade(21), 20);
    expect(next).toHaveLength(20);
    expect(next[0]?.id).toBe('21');
    expect(next.at(-1)?.id).toBe('2');
  });

  it('replaces a repeated fill instead of listing it twice', () => {
    const next = prependTrade([trade(2), trade(1)], { id: '1', symbol: 'ETH/USDT:USDT' }, 20);
    expect(next.map((t) => t.id)).toEqual(['1', '2']);
    expect(next[0]?.symbol).toBe('ETH/USDT:USDT');
  });
});

describe('copyButtonState', () => {
  const base = { acceptsCopy: true, isOwner: false, isLoggedIn: true, isCopying: false };

  it('is hidden when the strategy refuses copies or belongs to the viewer', () => {
    expect(copyButtonState({ ...base, acceptsCopy: false })).toBe('hidden');
    expect(copyButtonState({ ...base, isOwner: true })).toBe('hidden');
  });

  it('sends visitors to login and says when the viewer already copies', () => {
    expect(copyButtonState({ ...base, isLoggedIn: false })).toBe('login');
    expect(copyButtonState({ ...base, isCopying: true })).toBe('copying');
    expect(copyButtonState(base)).toBe('copy');
  });
});

describe('visibleLength and initialOf', () => {
  it('counts what the reader sees of editor HTML', () => {
    expect(visibleLength('<p>Hello <strong>world</strong></p>')).toBe(11);
    expect(visibleLength('<p>a&amp;b</p><p><br></p>')).toBe(3);
    expect(visibleLength('<p>中文😀</p>')).toBe(3);
    expect(visibleLength('<script>alert(1)</script>x')).toBe(1);
  });

  it('takes the first character, upper case, or a question mark', () => {
    expect(initialOf('alice')).toBe('A');
    expect(initialOf('  量化')).toBe('量');
    // No letter, no initial: the avatar shows a person icon (a phone user is not "1").
    expect(initialOf('')).toBe('');
    expect(initialOf(null)).toBe('');
    expect(initialOf('13912345678')).toBe('');
    expect(initialOf('139****5678')).toBe('');
  });
});

describe('parseRouteId', () => {
  it('takes positive whole numbers only', () => {
    expect(parseRouteId('42')).toBe(42);
    expect(parseRouteId('0')).toBeNull();
    expect(parseRouteId('-1')).toBeNull();
    expect(parseRouteId('4.2')).toBeNull();
    expect(parseRouteId('abc')).toBeNull();
    expect(parseRouteId(undefined)).toBeNull();
  });
});

describe('drawdownShown', () => {
  it('shows a drawdown as a negative percent, and no drawdown as 0', () => {
    expect(drawdownShown(12.5)).toBe(-12.5);
    expect(Object.is(drawdownShown(0), 0)).toBe(true);
  });
});

describe('copyFigureTexts', () => {
  it("shows the copiers' P&L in USDT with 2 decimals and the efficiency as a percent", () => {
    expect(copyFigureTexts({ copier_pnl: '10', copy_efficiency: 0.425 }, 'en')).toEqual({
      pnl: '+10.00 USDT',
      efficiency: '42.50%',
    });
    expect(copyFigureTexts({ copier_pnl: '-1234.567', copy_efficiency: -0.4 }, 'en')).toEqual({
      pnl: '-1,234.57 USDT',
      efficiency: '-40.00%',
    });
    expect(copyFigureTexts({ copier_pnl: '0', copy_efficiency: 0 }, 'zh-CN')).toEqual({
      pnl: '0.00 USDT',
      efficiency: '0.00%',
    });
  });

  it('shows a dash where no efficiency is defined (nobody copies)', () => {
    expect(copyFigureTexts({ copier_pnl: '0', copy_efficiency: null }, 'zh-CN')).toEqual({
      pnl: '0.00 USDT',
      efficiency: '—',
    });
  });
});
