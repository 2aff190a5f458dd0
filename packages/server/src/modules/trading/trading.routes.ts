import {
  apiErrorSchema,
  type BacktestResponse,
  backtestRequest,
  backtestResponse,
  dataFreshness,
  dataFreshnessQuery,
  type MarketDataResponse,
  marketDataQuery,
  marketDataResponse,
  marketStatusResponse,
  type StrategyList,
  strategyList,
  symbolsQuery,
  symbolsResponse,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { TradingService } from './trading.service.js';

/**
 * A preserialised answer: the service's JSON bytes of a value that matches the route's response
 * schema. Fastify sends a Buffer as is (no serializer runs), so only
 * the static type needs this bridge.
 */
function preserialised<T>(json: Buffer): T {
  return json as unknown as T;
}

export interface TradingRoutesDeps {
  trading: TradingService;
  /** Signed-in callers also see and run their own strategies (`custom:<id>`). */
  authentication: BearerAuthentication;
}

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 503: apiErrorSchema };

/**
 * Public market-data, strategy and backtest calls (document 1 §7). The heavy answers are JSON
 * bytes built once per data version by the service: a Buffer skips Fastify's serializer, so
 * each request costs a cache lookup, not a serialisation.
 */
export const tradingRoutes =
  (deps: TradingRoutesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { trading } = deps;
    const { optionalAuth, currentUser, security } = deps.authentication;
    const tags = ['trading'];

    app.get(
      '/trading/strategies/',
      {
        preValidation: optionalAuth,
        schema: { tags, security, response: { 200: strategyList, 401: apiErrorSchema } },
      },
      async (request, reply) => {
        const user = currentUser(request);
        if (user) return trading.strategiesFor(user.userId);
        return reply
          .type('application/json')
          .send(preserialised<StrategyList>(trading.strategiesJson()));
      },
    );
    app.get(
      '/trading/symbols/',
      {
        schema: { tags, querystring: symbolsQuery, response: { 200: symbolsResponse, ...errors } },
      },
      async (request) => trading.symbols(request.query.exchange),
    );
    app.get(
      '/trading/market-data/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          security,
          querystring: marketDataQuery,
          response: { 200: marketDataResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .type('application/json')
          .send(
            preserialised<MarketDataResponse>(
              await trading.marketDataJson(request.query, currentUser(request)?.userId),
            ),
          ),
    );
    app.post(
      '/trading/backtest/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          security,
          body: backtestRequest,
          response: { 200: backtestResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .type('application/json')
          .send(
            preserialised<BacktestResponse>(
              await trading.backtestJson(request.body, currentUser(request)?.userId),
            ),
          ),
    );
    app.get(
      '/trading/data-freshness/',
      {
        schema: {
          tags,
          querystring: dataFreshnessQuery,
          response: { 200: dataFreshness, ...errors },
        },
      },
      async (request) =>
        trading.freshness(request.query.exchange, request.query.symbol, request.query.timeframe),
    );
    app.get(
      '/trading/market-status/',
      { schema: { tags, response: { 200: marketStatusResponse, ...errors } } },
      async () => trading.marketStatus(),
    );
  };
