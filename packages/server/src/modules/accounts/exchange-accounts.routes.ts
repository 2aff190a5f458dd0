import {
  apiErrorSchema,
  balanceResponse,
  connectionTestResponse,
  exchangeApi,
  exchangeApiCreateRequest,
  exchangeApiDeleteResponse,
  exchangeApiList,
  exchangeApiUpdateRequest,
  validateResponse,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerAuthentication } from '../../common/bearer-auth.js';
import type { TokensService } from '../auth/tokens.service.js';
import type { ExchangeAccountsService } from './exchange-accounts.service.js';

/** An account id in a path: a positive 32-bit integer (the column's range). */
export const accountIdParams = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
});

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

export const exchangeAccountsRoutes =
  (deps: {
    exchangeAccounts: ExchangeAccountsService;
    tokens: TokensService;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const service = deps.exchangeAccounts;
    const { preValidation, requireAuth, security } = bearerAuthentication(deps.tokens);
    const tags = ['exchange-apis'];
    const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

    app.get(
      '/auth/apis/',
      { preValidation, schema: { tags, security, response: { 200: exchangeApiList, ...errors } } },
      async (request) => service.list(userId(request)),
    );
    app.post(
      '/auth/apis/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: exchangeApiCreateRequest,
          response: { 201: exchangeApi, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(userId(request), request.body, request.ip)),
    );
    app.get(
      '/auth/apis/:id/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: accountIdParams,
          response: { 200: exchangeApi, ...errors },
        },
      },
      async (request) => service.get(userId(request), request.params.id),
    );
    app.patch(
      '/auth/apis/:id/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: accountIdParams,
          body: exchangeApiUpdateRequest,
          response: { 200: exchangeApi, ...errors },
        },
      },
      async (request) =>
        service.update(userId(request), request.params.id, request.body, request.ip),
    );
    app.delete(
      '/auth/apis/:id/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: accountIdParams,
          response: { 200: exchangeApiDeleteResponse, ...errors },
        },
      },
      async (request) => service.remove(userId(request), request.params.id),
    );
    app.post(
      '/auth/apis/:id/test_connection/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: accountIdParams,
          response: { 200: connectionTestResponse, ...errors },
        },
      },
      async (request) => service.testConnection(userId(request), request.params.id),
    );
    app.post(
      '/auth/apis/:id/validate/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: accountIdParams,
          response: { 200: validateResponse, ...errors },
        },
      },
      async (request) => service.validate(userId(request), request.params.id),
    );
    app.get(
      '/auth/apis/:id/balance/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: accountIdParams,
          response: { 200: balanceResponse, ...errors },
        },
      },
      async (request) => service.balance(userId(request), request.params.id),
    );
  };
