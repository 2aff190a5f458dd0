import {
  apiErrorSchema,
  type StrategyListResponse,
  shareSettings,
  shareSettingsUpdateRequest,
  shareStatusResponse,
  strategyDetail,
  strategyDetailQuery,
  strategyListQuery,
  strategyListResponse,
  strategyPositionList,
  strategyTradeList,
  strategyTradesQuery,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { ListingService } from './listing.service.js';
import type { SharingService } from './sharing.service.js';

/**
 * A preserialised answer: JSON bytes of a value matching the route's response schema. Fastify
 * sends a Buffer as is (no serializer runs); only the static type needs this bridge.
 */
function preserialised<T>(json: Buffer): T {
  return json as unknown as T;
}

/** An id in a path: a positive 32-bit integer (the columns' range). */
export const squareIdParams = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
});

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
};

/** Share settings (owner only) and the square's public reads of strategies. */
export const squareRoutes =
  (deps: {
    sharing: SharingService;
    listing: ListingService;
    authentication: BearerAuthentication;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, optionalAuth, requireAuth, currentUser, security } = deps.authentication;
    const tags = ['strategy-square'];

    app.get(
      '/strategy-square/accounts/:id/check-share-status/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: squareIdParams,
          response: { 200: shareStatusResponse, ...errors },
        },
      },
      async (request) => deps.sharing.status(requireAuth(request).userId, request.params.id),
    );
    app.get(
      '/strategy-square/accounts/:id/share-settings/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: squareIdParams,
          response: { 200: shareSettings, ...errors },
        },
      },
      async (request) => deps.sharing.get(requireAuth(request).userId, request.params.id),
    );
    app.put(
      '/strategy-square/accounts/:id/share-settings/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: squareIdParams,
          body: shareSettingsUpdateRequest,
          response: { 200: shareSettings, ...errors },
        },
      },
      async (request) =>
        deps.sharing.update(requireAuth(request).userId, request.params.id, request.body),
    );

    app.get(
      '/strategy-square/strategies/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          querystring: strategyListQuery,
          response: { 200: strategyListResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .type('application/json')
          .send(preserialised<StrategyListResponse>(await deps.listing.listJson(request.query))),
    );
    app.get(
      '/strategy-square/strategies/:id/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          params: squareIdParams,
          querystring: strategyDetailQuery,
          response: { 200: strategyDetail, ...errors },
        },
      },
      async (request) =>
        deps.listing.detail(request.params.id, currentUser(request)?.userId, request.query.period),
    );
    app.get(
      '/strategy-square/strategies/:id/trades/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          params: squareIdParams,
          querystring: strategyTradesQuery,
          response: { 200: strategyTradeList, ...errors },
        },
      },
      async (request) => deps.listing.trades(request.params.id, request.query.limit),
    );
    app.get(
      '/strategy-square/strategies/:id/positions/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          params: squareIdParams,
          response: { 200: strategyPositionList, ...errors },
        },
      },
      async (request) => deps.listing.positions(request.params.id),
    );
  };
