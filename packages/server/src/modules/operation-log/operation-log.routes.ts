import { apiErrorSchema, operationLogList, operationLogQuery } from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerAuthentication } from '../../common/bearer-auth.js';
import type { TokensService } from '../auth/tokens.service.js';
import type { OperationLogService } from './operation-log.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema };

/** GET /trading/logs/: the signed-in user's own operation log, newest first. */
export const operationLogRoutes =
  (deps: { operationLog: OperationLogService; tokens: TokensService }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, requireAuth, security } = bearerAuthentication(deps.tokens);
    app.get(
      '/trading/logs/',
      {
        preValidation,
        schema: {
          tags: ['operation-log'],
          security,
          querystring: operationLogQuery,
          response: { 200: operationLogList, ...errors },
        },
      },
      async (request) => deps.operationLog.list(requireAuth(request).userId, request.query),
    );
  };
