import {
  DEFAULT_EXCHANGE,
  DEFAULT_STRATEGY_TYPE,
  DEFAULT_SYMBOLS,
  DEFAULT_TIMEFRAME,
  type Exchange,
  type StrategyInfo,
  type Timeframe,
} from '@quantsquare/contracts';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type MarketSelection, useStrategies, useSymbols } from '../../api/trading';

export interface StrategyOption {
  type: string;
  name: string | null;
}

/** The symbols to offer: the server's list, or the spec's defaults when it gives none. */
export function symbolOptions(serverSymbols: readonly string[] | undefined): string[] {
  return serverSymbols && serverSymbols.length > 0 ? [...serverSymbols] : [...DEFAULT_SYMBOLS];
}

/** The strategies to offer: the server's list, or the default strategy when it gives none. */
export function strategyOptions(strategies: readonly StrategyInfo[] | undefined): StrategyOption[] {
  if (strategies && strategies.length > 0) {
    return strategies.map((s) => ({ type: s.type, name: s.name }));
  }
  return [{ type: DEFAULT_STRATEGY_TYPE, name: null }];
}

/** A chosen value while it is still offered, else the preferred default, else the first. */
function pick(chosen: string | null, offered: readonly string[], preferred: string): string {
  if (chosen && offered.includes(chosen)) return chosen;
  if (offered.includes(preferred)) return preferred;
  return offered[0] ?? preferred;
}

/**
 * The dashboard's four selectors. The selection is null until the strategy and symbol lists
 * have answered (or failed), so the chart is not loaded for a symbol the exchange lacks.
 */
export function useMarketSelection() {
  const [exchange, setExchange] = useState<Exchange>(DEFAULT_EXCHANGE);
  const [timeframe, setTimeframe] = useState<Timeframe>(DEFAULT_TIMEFRAME);
  const [chosenSymbol, setSymbol] = useState<string | null>(null);
  // `?strategy=custom:7` opens the dashboard on that strategy (the builder links here).
  const [searchParams] = useSearchParams();
  const [chosenStrategy, setStrategy] = useState<string | null>(searchParams.get('strategy'));
  const strategies = useStrategies();
  const symbols = useSymbols(exchange);

  const symbolList = useMemo(() => symbolOptions(symbols.data?.symbols), [symbols.data]);
  const strategyList = useMemo(() => strategyOptions(strategies.data?.results), [strategies.data]);
  const symbol = pick(chosenSymbol, symbolList, symbolList[0] ?? DEFAULT_SYMBOLS[0]);
  const strategyType = pick(
    chosenStrategy,
    strategyList.map((s) => s.type),
    DEFAULT_STRATEGY_TYPE,
  );
  const isReady = !strategies.isPending && !symbols.isPending;

  const selection = useMemo<MarketSelection | null>(
    () => (isReady ? { exchange, symbol, timeframe, strategyType } : null),
    [isReady, exchange, symbol, timeframe, strategyType],
  );

  return {
    selection,
    exchange,
    symbol,
    timeframe,
    strategyType,
    symbolList,
    strategyList,
    symbolSource: symbols.data?.source ?? null,
    isLoadingSymbols: symbols.isPending,
    isLoadingStrategies: strategies.isPending,
    setExchange,
    setTimeframe,
    setSymbol,
    setStrategy,
  };
}
