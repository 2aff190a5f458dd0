import { accountOverview, accountsOverviewResponse, apiErrorSchema } from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerAuthentication } from '../../common/bearer-auth.js';
import type { TokensService } from '../auth/tokens.service.js';
import type { AccountsService } from './accounts.service.js';
import { accountIdParams } from './exchange-accounts.routes.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

export const accountsRoutes =
  (deps: { accounts: AccountsService; tokens: TokensService }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, requireAuth, security } = bearerAuthentication(deps.tokens);
    const tags = ['accounts'];

    app.get(
      '/trading/accounts/',
      {
        preValidation,
        schema: { tags, security, response: { 200: accountsOverviewResponse, ...errors } },
      },
      async (request) => deps.accounts.overview(requireAuth(request).userId),
    );
    app.post(
      '/trading/accounts/:id/refresh/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: accountIdParams,
          response: { 200: accountOverview, ...errors },
        },
      },
      async (request) => deps.accounts.refresh(requireAuth(request).userId, request.params.id),
    );
  };
