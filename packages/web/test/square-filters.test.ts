import { describe, expect, it } from 'vitest';
import { listQueryString } from '../src/api/square';
import { parseFrame, strategySocketUrl } from '../src/api/strategy-socket';
import {
  activeQuickTag,
  applyQuickTag,
  changeFilters,
  readFilters,
  writeFilters,
} from '../src/features/square/square-filters';

const defaults = readFilters(new URLSearchParams());

describe('square filters in the address', () => {
  it('defaults to copiers, monthly, every exchange, page 1, strategy search', () => {
    expect(defaults).toEqual({
      page: 1,
      mode: 'strategy',
      search: '',
      exchange: null,
      sort: 'copiers',
      period: 'monthly',
      honest: false,
    });
    expect(writeFilters(defaults).toString()).toBe('');
  });

  it('reads back what it writes and ignores unknown values', () => {
    const filters = {
      page: 3,
      mode: 'user' as const,
      search: 'alice',
      exchange: 'okx' as const,
      sort: 'sharpe_ratio' as const,
      period: 'total' as const,
      honest: false,
    };
    expect(readFilters(writeFilters(filters))).toEqual(filters);
    const honest = { ...filters, sort: 'live_delta' as const, honest: true };
    expect(readFilters(writeFilters(honest))).toEqual(honest);
    expect(
      readFilters(new URLSearchParams('page=-2&sort=drop&period=yearly&exchange=ftx&mode=x')),
    ).toEqual(defaults);
  });

  it('goes back to page 1 on any change but the page, and a new mode clears the search', () => {
    const onPage4 = { ...defaults, page: 4, search: 'grid' };
    expect(changeFilters(onPage4, { exchange: 'binance' })).toMatchObject({
      page: 1,
      search: 'grid',
    });
    expect(changeFilters(onPage4, { page: 5 })).toMatchObject({ page: 5 });
    expect(changeFilters(onPage4, { mode: 'user' })).toMatchObject({ mode: 'user', search: '' });
  });

  it('applies the quick tags of the spec and recognises them', () => {
    expect(applyQuickTag(defaults, 'high_return')).toMatchObject({
      sort: 'pnl',
      period: 'monthly',
    });
    expect(applyQuickTag(defaults, 'trending')).toMatchObject({
      sort: 'copiers',
      period: 'weekly',
    });
    const weekly = { ...defaults, period: 'weekly' as const };
    expect(applyQuickTag(weekly, 'low_risk')).toMatchObject({
      sort: 'sharpe_ratio',
      period: 'weekly',
    });
    expect(applyQuickTag(weekly, 'stable')).toMatchObject({ sort: 'win_rate' });
    expect(activeQuickTag(defaults)).toBeNull();
    expect(activeQuickTag(applyQuickTag(defaults, 'trending'))).toBe('trending');
    expect(activeQuickTag(applyQuickTag(defaults, 'low_risk'))).toBe('low_risk');
  });

  it('the honest tag sorts by the smallest delta and asks for honest strategies only', () => {
    const honest = applyQuickTag(defaults, 'honest');
    expect(honest).toMatchObject({ sort: 'live_delta', honest: true, period: 'monthly' });
    expect(activeQuickTag(honest)).toBe('honest');
    expect(activeQuickTag({ ...honest, honest: false })).toBeNull();
    expect(new URLSearchParams(listQueryString(honest)).get('honest')).toBe('true');
    // Another tag turns the honest filter off again.
    expect(applyQuickTag(honest, 'stable')).toMatchObject({ sort: 'win_rate', honest: false });
  });

  it('asks the server with page_size 12, is_public and the search of the chosen mode', () => {
    const query = new URLSearchParams(
      listQueryString({ ...defaults, page: 2, search: ' alice ', mode: 'user', exchange: 'okx' }),
    );
    expect(Object.fromEntries(query)).toEqual({
      page: '2',
      page_size: '12',
      sort: 'copiers',
      period: 'monthly',
      is_public: 'true',
      exchange: 'okx',
      user_search: 'alice',
    });
    expect(
      new URLSearchParams(listQueryString({ ...defaults, search: 'grid' })).get('search'),
    ).toBe('grid');
  });
});

describe('the live connection', () => {
  it('connects to the page origin, ws or wss alike', () => {
    expect(strategySocketUrl({ protocol: 'http:', host: 'localhost:8470' }, 7)).toBe(
      'ws://localhost:8470/ws/strategies/7',
    );
    expect(strategySocketUrl({ protocol: 'https:', host: 'quant.example' }, 7)).toBe(
      'wss://quant.example/ws/strategies/7',
    );
  });

  it('keeps the four known frame types and ignores the rest', () => {
    expect(parseFrame('{"type":"pong","timestamp":5}')).toEqual({ type: 'pong', timestamp: 5 });
    expect(parseFrame('{"type":"position_update","data":[]}')).toEqual({
      type: 'position_update',
      data: [],
    });
    expect(parseFrame('{"type":"trade_update"}')).toBeNull();
    expect(parseFrame('{"type":"hello","data":1}')).toBeNull();
    expect(parseFrame('not json')).toBeNull();
    expect(parseFrame(new ArrayBuffer(2))).toBeNull();
  });
});
