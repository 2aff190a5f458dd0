import { lazy } from 'react';

// lightweight-charts loads with the dashboard only, in a chunk of its own.
export const LazyCandleChart = lazy(() => import('./CandleChart'));
export const LazyEquityChart = lazy(() => import('./EquityChart'));
