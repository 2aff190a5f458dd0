import { apiErrorSchema, riskSettings, riskSettingsRequest } from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerAuthentication } from '../../common/bearer-auth.js';
import { accountIdParams } from '../accounts/exchange-accounts.routes.js';
import type { TokensService } from '../auth/tokens.service.js';
import type { RiskService } from './risk.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

/** An exchange account's risk gate: its limits, and the user's halt and resume. */
export const riskRoutes =
  (deps: { risk: RiskService; tokens: TokensService }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, requireAuth, security } = bearerAuthentication(deps.tokens);
    const tags = ['risk'];
    const schema = { tags, security, params: accountIdParams };
    const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

    app.get(
      '/trading/accounts/:id/risk/',
      { preValidation, schema: { ...schema, response: { 200: riskSettings, ...errors } } },
      async (request) => deps.risk.get(userId(request), request.params.id),
    );
    app.put(
      '/trading/accounts/:id/risk/',
      {
        preValidation,
        schema: {
          ...schema,
          body: riskSettingsRequest,
          response: { 200: riskSettings, ...errors },
        },
      },
      async (request) => deps.risk.update(userId(request), request.params.id, request.body),
    );
    app.post(
      '/trading/accounts/:id/risk/halt/',
      { preValidation, schema: { ...schema, response: { 200: riskSettings, ...errors } } },
      async (request) => deps.risk.halt(userId(request), request.params.id),
    );
    app.post(
      '/trading/accounts/:id/risk/resume/',
      { preValidation, schema: { ...schema, response: { 200: riskSettings, ...errors } } },
      async (request) => deps.risk.resume(userId(request), request.params.id),
    );
  };
