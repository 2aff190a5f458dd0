import {
  type BacktestRequest,
  type BacktestResponse,
  customStrategyId,
  type DataFreshness,
  DEFAULT_SYMBOLS,
  EXCHANGES,
  type Exchange,
  FIELD_ERROR_CODES,
  type MarketDataQuery,
  type MarketDataResponse,
  type MarketStatusResponse,
  type StrategyInfo,
  type StrategyList,
  type SymbolsResponse,
  TIMEFRAMES,
  type Timeframe,
} from '@quantsquare/contracts';
import {
  type BacktestOptions,
  backtestReport,
  type CompiledStrategy,
  candlesFromRows,
  compileRuleStrategy,
  compileStrategy,
  runBacktest,
  strategyCatalog,
  strategySignalsToJson,
} from '@quantsquare/engine';
import type { Clock } from '../../common/clock.js';
import { FieldErrorList, ValidationFailed } from '../../common/errors.js';
import { computeFreshness, maxAllowedDelaySeconds } from '../../market/freshness.js';
import { ExchangeUnavailable } from '../../market/market.errors.js';
import type { CandleSeries, MarketCandle, MarketFeed } from '../../market/market.types.js';
import { isPerpetual } from '../../market/simulated-funding.js';
import { AnswerCache } from './answer-cache.js';
import { backtestSummaryAnswer } from './backtest-answer.js';

/** Users' own rule-based strategies (the user-strategies module's service). */
export interface CustomStrategies {
  catalogFor(userId: number): Promise<StrategyInfo[]>;
  /** `custom:<id>` for its owner; a field error on `strategy_type` for anyone else. */
  compiledFor(userId: number | undefined, type: string): Promise<CompiledStrategy>;
}

export interface TradingServiceDeps {
  readonly feed: MarketFeed;
  readonly clock: Clock;
  readonly customStrategies?: CustomStrategies;
}

/** The heavy answers are served as ready JSON bytes (built once per data version). */
export interface TradingService {
  strategiesJson(): Buffer;
  /** The catalogue followed by `userId`'s own strategies (`custom:<id>`). */
  strategiesFor(userId: number): Promise<StrategyList>;
  symbols(exchange: Exchange): Promise<SymbolsResponse>;
  /** `userId`: the signed-in caller, who may name their own `custom:<id>` strategies. */
  marketDataJson(query: MarketDataQuery, userId?: number): Promise<Buffer>;
  backtestJson(request: BacktestRequest, userId?: number): Promise<Buffer>;
  freshness(exchange: Exchange, symbol: string, timeframe: Timeframe): Promise<DataFreshness>;
  marketStatus(): Promise<MarketStatusResponse>;
}

const ANSWER_CACHE_ENTRIES = 500;

/** The catalogue as GET /trading/strategies/ lists it (ids 1..n, defaults, parameter specs). */
function strategyList(): StrategyList {
  const results = strategyCatalog().map((entry) => ({
    id: entry.id,
    type: entry.type,
    name: entry.name,
    description: entry.description,
    parameters: { ...entry.defaults },
    parameter_specs: entry.parameterSpecs.map((spec) => ({ ...spec })),
  }));
  return { results, count: results.length };
}

/** The strategy of a request, compiled once; its field errors answer 400. */
function compiledOrFail(type: string, parameters: unknown): CompiledStrategy {
  const compiled = compileStrategy(type, parameters);
  if (!compiled.ok) throw parameterErrors(compiled.fields);
  return compiled.strategy;
}

/** Type of an unsaved rule set run by a preview backtest. */
const PREVIEW_TYPE = 'custom';

/** An unsaved rule set (the builder's preview), checked as a saved one; issues answer 400. */
function previewStrategy(rules: unknown): CompiledStrategy {
  const compiled = compileRuleStrategy(PREVIEW_TYPE, rules);
  if (compiled.ok) return compiled.strategy;
  const errors = new FieldErrorList();
  for (const issue of compiled.issues) {
    errors.add(issue.path === '' ? 'rules' : `rules.${issue.path}`, issue.message, issue.code);
  }
  throw errors.failure('Invalid rules');
}

/** The code of one of the engine's parameter messages (strategy-parameters.ts). */
function parameterCode(message: string): string {
  if (message.startsWith('Unknown strategy type')) return FIELD_ERROR_CODES.unknownStrategy;
  if (message.startsWith('Unknown parameter')) return FIELD_ERROR_CODES.unknownParameter;
  if (message === 'Must be a number' || message === 'Parameters must be an object') {
    return FIELD_ERROR_CODES.invalidType;
  }
  if (message === 'Must be a whole number') return FIELD_ERROR_CODES.notInteger;
  return FIELD_ERROR_CODES.invalid;
}

/** Engine field errors keyed by parameter name → `parameters.<name>` (strategy_type as is). */
function parameterErrors(fields: Record<string, string[]>): ValidationFailed {
  const errors = new FieldErrorList();
  for (const [name, messages] of Object.entries(fields)) {
    const field = name === 'strategy_type' || name === 'parameters' ? name : `parameters.${name}`;
    for (const message of messages) errors.add(field, message, parameterCode(message));
  }
  return errors.failure('Validation failed');
}

/**
 * The chart shows the newest `limit` candles including the forming one; signals are decided on
 * closed candles only (no signal on the forming candle), as the backtest and the live bot use.
 * Its lines include the forming candle, since each value depends only on candles up to its own.
 */
function chartWindow(series: CandleSeries, limit: number): MarketCandle[] {
  const closedCount = series.forming ? limit - 1 : limit;
  const closed = closedCount > 0 ? series.closed.slice(-closedCount) : [];
  return series.forming ? [...closed, series.forming] : closed;
}

/**
 * The lines the chart draws for a strategy: its own indicators only. The RSI and Bollinger
 * strategies also compute two dashboard moving averages, which are not what they trade on.
 */
function chartLines(type: string, lines: Record<string, (number | null)[]>) {
  const hasMovingAverages = type !== 'rsi_reversion' && type !== 'bollinger_breakout';
  const own = (name: string) => (lines[name] ? { [name]: lines[name] } : {});
  return {
    ma_fast: hasMovingAverages ? (lines.ma_fast ?? []) : [],
    ma_slow: hasMovingAverages ? (lines.ma_slow ?? []) : [],
    ...own('bb_upper'),
    ...own('bb_middle'),
    ...own('bb_lower'),
    ...own('rsi'),
    ...own('macd'),
    ...own('macd_signal'),
    ...own('macd_histogram'),
  };
}

function indicatorsFor(
  strategy: CompiledStrategy,
  candles: readonly MarketCandle[],
  closedCount: number,
) {
  const signals = strategySignalsToJson(strategy.compute(candlesFromRows(candles)));
  const isClosed = (index: number) => index < closedCount;
  return {
    ...chartLines(strategy.type, signals.indicators),
    buy_signals: signals.buy_signals.filter(isClosed),
    sell_signals: signals.sell_signals.filter(isClosed),
  };
}

/** A built-in compiled from its parameters, or the caller's own rule set. */
async function strategyOf(
  customStrategies: TradingServiceDeps['customStrategies'],
  type: string,
  parameters: unknown,
  userId: number | undefined,
): Promise<CompiledStrategy> {
  if (customStrategyId(type) !== null && customStrategies) {
    return customStrategies.compiledFor(userId, type);
  }
  return compiledOrFail(type, parameters);
}

/**
 * The symbols the market status covers: every symbol the exchange lists (the dashboard's
 * selector offers all of them), or the defaults while the exchange cannot be reached.
 */
async function statusSymbols(
  feed: TradingServiceDeps['feed'],
  exchange: Exchange,
): Promise<readonly string[]> {
  try {
    return (await feed.symbols(exchange)).symbols;
  } catch (error) {
    if (error instanceof ExchangeUnavailable) return DEFAULT_SYMBOLS;
    throw error;
  }
}

/** A default symbol the exchange does not list is left out; an unreachable exchange is stale. */
async function statusOf(
  feed: TradingServiceDeps['feed'],
  exchange: Exchange,
  symbol: string,
  timeframe: Timeframe,
): Promise<DataFreshness | undefined> {
  try {
    return await feed.freshness(exchange, symbol, timeframe);
  } catch (error) {
    if (error instanceof ValidationFailed) return undefined;
    if (error instanceof ExchangeUnavailable) {
      return {
        is_fresh: false,
        delay_seconds: 0,
        max_allowed_delay: maxAllowedDelaySeconds(timeframe),
        source: 'live',
        last_candle_time: null,
      };
    }
    throw error;
  }
}

/** Every exchange's symbols and how fresh each timeframe's data is. */
async function marketStatus(feed: TradingServiceDeps['feed']): Promise<MarketStatusResponse> {
  const exchanges: MarketStatusResponse['exchanges'] = {};
  for (const exchange of EXCHANGES) {
    let source: DataFreshness['source'] = 'simulated';
    const symbols: MarketStatusResponse['exchanges'][string]['symbols'] = {};
    for (const symbol of await statusSymbols(feed, exchange)) {
      const timeframes: Record<
        string,
        { is_fresh: boolean; delay_seconds: number; last_candle_time: number | null }
      > = {};
      for (const timeframe of TIMEFRAMES) {
        const freshness = await statusOf(feed, exchange, symbol, timeframe);
        if (!freshness) break;
        source = freshness.source;
        timeframes[timeframe] = {
          is_fresh: freshness.is_fresh,
          delay_seconds: freshness.delay_seconds,
          last_candle_time: freshness.last_candle_time,
        };
      }
      if (Object.keys(timeframes).length > 0) symbols[symbol] = { timeframes };
    }
    exchanges[exchange] = { source, symbols };
  }
  return { exchanges };
}

/** The backtest's options: the request's settings, else the strategy's own protections. */
function backtestOptions(
  strategy: CompiledStrategy,
  settings: NonNullable<BacktestRequest['settings']>,
  funding: BacktestOptions['funding'],
  timeframe: Timeframe,
): BacktestOptions {
  return {
    funding,
    timeframe,
    initialBalance: settings.initial_balance,
    feeRate: settings.fee_rate,
    slippageBps: settings.slippage_bps,
    // The request's levels first, else the strategy's own (a rule set may carry them).
    stopLossPercent: settings.stop_loss_percentage ?? strategy.protections?.stopLossPercent,
    takeProfitPercent: settings.take_profit_percentage ?? strategy.protections?.takeProfitPercent,
    trailingStopPercent:
      settings.trailing_stop_percentage ?? strategy.protections?.trailingStopPercent,
    direction: settings.direction,
    leverage: settings.leverage,
    positionSizeFraction: settings.position_size,
  };
}

export function createTradingService(deps: TradingServiceDeps): TradingService {
  const { feed, clock, customStrategies } = deps;
  const builtIns = strategyList();
  const strategiesJson = Buffer.from(JSON.stringify(builtIns));

  const answers = new AnswerCache(ANSWER_CACHE_ENTRIES);

  return {
    strategiesJson: () => strategiesJson,

    async strategiesFor(userId) {
      const own = customStrategies ? await customStrategies.catalogFor(userId) : [];
      const results = [...builtIns.results, ...own];
      return { results, count: results.length };
    },

    async symbols(exchange) {
      const list = await feed.symbols(exchange);
      return { exchange, source: list.source, symbols: [...list.symbols] };
    },

    async marketDataJson(query, userId) {
      const strategy = await strategyOf(customStrategies, query.strategy_type, undefined, userId);
      const type = strategy.type;
      const { exchange, symbol, timeframe, limit } = query;
      const series = await feed.series({ exchange, symbol, timeframe, closedCount: limit });
      const nowMs = clock.now().getTime();
      // The freshness delay inside the answer is in whole seconds: one build per second at most.
      const version = `${series.source}:${series.revision}:${Math.floor(nowMs / 1000)}`;
      const key = `${exchange}|${symbol}|${timeframe}|${limit}|${strategy.key}`;
      const cached = answers.get(key, version);
      if (cached !== undefined) return cached;
      const candles = chartWindow(series, limit);
      const closedCount = series.forming ? candles.length - 1 : candles.length;
      const newest = candles[candles.length - 1];
      const answer: MarketDataResponse = {
        exchange,
        symbol,
        timeframe,
        source: series.source,
        strategy_type: type,
        candles,
        indicators: indicatorsFor(strategy, candles, closedCount),
        freshness: computeFreshness({
          source: series.source,
          timeframe,
          nowMs,
          coveredUntilMs: series.coveredUntilMs > 0 ? series.coveredUntilMs : null,
          lastCandleTimeMs: newest?.timestamp ?? null,
        }),
      };
      const json = Buffer.from(JSON.stringify(answer));
      answers.set(key, version, json);
      return json;
    },

    async backtestJson(request, userId) {
      const strategy =
        request.rules !== undefined
          ? previewStrategy(request.rules)
          : await strategyOf(customStrategies, request.strategy_type, request.parameters, userId);
      const type = strategy.type;
      const { exchange, symbol, timeframe, limit } = request;
      const series = await feed.series({ exchange, symbol, timeframe, closedCount: limit });
      // Closed candles only: the result changes when a candle closes, not while one forms.
      const candles = series.closed.slice(-limit);
      const newest = candles[candles.length - 1];
      if (!newest) throw ValidationFailed.field('symbol', `No candles for ${symbol} yet`);
      const version = `${series.source}:${newest.timestamp}:${candles.length}`;
      const includeFunding = request.include_funding ?? isPerpetual(symbol);
      const key = `bt|${exchange}|${symbol}|${timeframe}|${limit}|${strategy.key}|${JSON.stringify(strategy.protections ?? null)}|${JSON.stringify(request.settings ?? {})}|${includeFunding}`;
      const cached = answers.get(key, version);
      if (cached !== undefined) return cached;
      const columns = candlesFromRows(candles);
      const signals = strategy.compute(columns);
      const settings = request.settings ?? {};
      // Funding rates from the candles' source: the venue's history on live data, the
      // simulated series on simulated data (labelled so in funding_source).
      const history = includeFunding
        ? await feed.fundingHistory(exchange, symbol, candles[0]!.timestamp, newest.timestamp)
        : undefined;
      const funding = history && {
        time: history.time,
        rate: history.rate,
        source: history.source,
        note: history.missing ?? undefined,
      };
      const result = runBacktest(
        columns,
        signals,
        backtestOptions(strategy, settings, funding, timeframe),
      );
      const json = strategySignalsToJson(signals);
      const answer: BacktestResponse = {
        exchange,
        symbol,
        timeframe,
        source: series.source,
        strategy_type: type,
        parameters: { ...strategy.parameters },
        candles,
        indicators: {
          ...chartLines(type, json.indicators),
          buy_signals: json.buy_signals,
          sell_signals: json.sell_signals,
        },
        backtest: backtestSummaryAnswer(backtestReport(result)),
        funding_source: history ? history.source : null,
      };
      const text = Buffer.from(JSON.stringify(answer));
      // An answer missing settlements the venue could not give is not kept: the next asks again.
      if (!history?.missing) answers.set(key, version, text);
      return text;
    },

    freshness: (exchange, symbol, timeframe) => feed.freshness(exchange, symbol, timeframe),
    marketStatus: () => marketStatus(feed),
  };
}
