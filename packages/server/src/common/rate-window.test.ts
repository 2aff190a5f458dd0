import { describe, expect, it } from 'vitest';
import { createKeyedWindows, SlidingWindow } from './rate-window.js';

describe('a sliding window', () => {
  it('lets `limit` through in any window, then waits for the oldest to leave', () => {
    const window = new SlidingWindow([{ limit: 3, windowMs: 1_000 }]);
    for (const at of [0, 100, 200]) {
      expect(window.waitMs(at)).toBe(0);
      window.record(at);
    }
    // The fourth waits until the first (at 0) is out of the window (1,000 ms later).
    expect(window.waitMs(300)).toBe(701);
    expect(window.waitMs(1_001)).toBe(0);
  });

  it('never lets two windows’ worth through across a boundary, as fixed windows do', () => {
    const window = new SlidingWindow([{ limit: 5, windowMs: 1_000 }]);
    const sent: number[] = [];
    for (let at = 0; sent.length < 40; at += 10) {
      if (window.waitMs(at) === 0) {
        window.record(at);
        sent.push(at);
      }
    }
    for (const start of sent) {
      expect(sent.filter((t) => t >= start && t < start + 1_000).length).toBeLessThanOrEqual(5);
    }
  });

  it('counts weights, keeps every limit, and lets a cost above a limit go alone', () => {
    const window = new SlidingWindow([
      { limit: 10, windowMs: 1_000 },
      { limit: 15, windowMs: 10_000 },
    ]);
    window.record(0, 6);
    expect(window.waitMs(10, 4)).toBe(0);
    expect(window.waitMs(10, 5)).toBe(991);
    window.record(10, 4);
    // Within the short limit again after 1 s, but the long one holds 10 of 15 until 10 s.
    expect(window.waitMs(1_500, 6)).toBe(8_501);
    expect(window.waitMs(1_500, 5)).toBe(0);
    // Heavier than the short limit: it waits until that window is empty, then goes alone.
    const heavy = new SlidingWindow([{ limit: 10, windowMs: 1_000 }]);
    heavy.record(0, 3);
    expect(heavy.waitMs(100, 50)).toBe(901);
    expect(heavy.waitMs(1_001, 50)).toBe(0);
    expect(heavy.isIdle(1_001)).toBe(true);
  });
});

describe('keyed sliding windows', () => {
  it('keeps one window per key, and drops idle keys when full', () => {
    const windows = createKeyedWindows<string>([{ limit: 1, windowMs: 1_000 }], 2);
    windows.of('a', 0).record(0);
    windows.of('b', 0).record(0);
    expect(windows.of('a', 10).waitMs(10)).toBe(991);
    expect(windows.of('b', 10).waitMs(10)).toBe(991);
    // A third key at 2 s: a and b are idle by then, so they go and c has its own window.
    expect(windows.of('c', 2_000).waitMs(2_000)).toBe(0);
    expect(windows.of('a', 2_000).waitMs(2_000)).toBe(0);
  });
});
