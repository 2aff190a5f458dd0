import {
  EXCHANGES,
  type Exchange,
  SQUARE_DEFAULT_PERIOD,
  SQUARE_DEFAULT_SORT,
  SQUARE_PERIODS,
  SQUARE_QUICK_TAG_FILTERS,
  SQUARE_QUICK_TAGS,
  SQUARE_SEARCH_MAX_LENGTH,
  SQUARE_SORTS,
  type SquarePeriod,
  type SquareQuickTag,
  type SquareSort,
} from '@quantsquare/contracts';
import type { SquareListParams } from '../../api/square';

// The square's filters live in the address (so Back from a strategy returns to the same page
// of the same search). Unknown values fall back to the defaults.

const isOneOf = <T extends string>(list: readonly T[], value: string | null): value is T =>
  value !== null && (list as readonly string[]).includes(value);

export function readFilters(params: URLSearchParams): SquareListParams {
  const page = Number(params.get('page'));
  const mode = params.get('mode');
  const exchange = params.get('exchange');
  const sort = params.get('sort');
  const period = params.get('period');
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    mode: mode === 'user' ? 'user' : 'strategy',
    search: (params.get('q') ?? '').slice(0, SQUARE_SEARCH_MAX_LENGTH),
    exchange: isOneOf<Exchange>(EXCHANGES, exchange) ? exchange : null,
    sort: isOneOf<SquareSort>(SQUARE_SORTS, sort) ? sort : SQUARE_DEFAULT_SORT,
    period: isOneOf<SquarePeriod>(SQUARE_PERIODS, period) ? period : SQUARE_DEFAULT_PERIOD,
    honest: params.get('honest') === '1',
  };
}

/** The address query of the filters; defaults are left out so the plain square is /strategy-square. */
export function writeFilters(filters: SquareListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.mode !== 'strategy') params.set('mode', filters.mode);
  if (filters.search.trim()) params.set('q', filters.search.trim());
  if (filters.exchange) params.set('exchange', filters.exchange);
  if (filters.sort !== SQUARE_DEFAULT_SORT) params.set('sort', filters.sort);
  if (filters.period !== SQUARE_DEFAULT_PERIOD) params.set('period', filters.period);
  if (filters.honest) params.set('honest', '1');
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

/**
 * A filter change: any change but the page itself goes back to page 1; a new search mode
 * clears the search text (document 2 §2).
 */
export function changeFilters(
  current: SquareListParams,
  patch: Partial<SquareListParams>,
): SquareListParams {
  const next = { ...current, ...patch };
  if (patch.mode !== undefined && patch.mode !== current.mode) next.search = '';
  if (patch.page === undefined) next.page = 1;
  return next;
}

/** The quick tag the filters match, if any (document 2 §9). */
export function activeQuickTag(filters: SquareListParams): SquareQuickTag | null {
  for (const tag of SQUARE_QUICK_TAGS) {
    const rule = SQUARE_QUICK_TAG_FILTERS[tag];
    if (
      rule.sort === filters.sort &&
      (rule.period === undefined || rule.period === filters.period) &&
      (rule.honest === true) === filters.honest
    ) {
      return tag;
    }
  }
  return null;
}

/**
 * The filters after clicking a quick tag: its sort, its period when it names one, and the honest
 * filter on for the honest tag only.
 */
export function applyQuickTag(current: SquareListParams, tag: SquareQuickTag): SquareListParams {
  const rule = SQUARE_QUICK_TAG_FILTERS[tag];
  return changeFilters(current, {
    sort: rule.sort,
    honest: rule.honest === true,
    ...(rule.period ? { period: rule.period } : {}),
  });
}
