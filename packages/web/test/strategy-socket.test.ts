import { describe, expect, it } from 'vitest';
import { parseFrame, strategySocketUrl } from '../src/api/strategy-socket';

describe('the strategy socket', () => {
  it('connects on the page origin and names the last trade seen when reconnecting', () => {
    const page = { protocol: 'https:', host: 'app.example:8443' };
    expect(strategySocketUrl(page, 7)).toBe('wss://app.example:8443/ws/strategies/7');
    expect(strategySocketUrl({ protocol: 'http:', host: 'h' }, 7, 'fill:a/b')).toBe(
      'ws://h/ws/strategies/7?after=fill%3Aa%2Fb',
    );
  });

  it('takes resync and pong without data, other frames only with data', () => {
    expect(parseFrame('{"type":"resync"}')).toEqual({ type: 'resync' });
    expect(parseFrame('{"type":"pong","timestamp":1}')).toEqual({ type: 'pong', timestamp: 1 });
    expect(parseFrame('{"type":"trade_update"}')).toBeNull();
    expect(parseFrame('{"type":"unknown","data":{}}')).toBeNull();
    expect(parseFrame('not json')).toBeNull();
  });
});
