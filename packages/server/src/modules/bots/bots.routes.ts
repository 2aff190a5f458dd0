import {
  apiErrorSchema,
  BOT_ACTIONS,
  bot,
  botActionResponse,
  botCreateRequest,
  botExistsError,
  botList,
  idParams,
  liveVsBacktest,
  messageResponse,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerAuthentication } from '../../common/bearer-auth.js';
import type { TokensService } from '../auth/tokens.service.js';
import type { BotsService } from './bots.service.js';

const botActionParams = idParams.extend({ action: z.enum(BOT_ACTIONS) });

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
};

/** /trading/bots/… (document 1 §7): login required; another user's bot is not found. */
export const botsRoutes =
  (deps: { bots: BotsService; tokens: TokensService }): FastifyPluginAsyncZod =>
  async (app) => {
    const service = deps.bots;
    const { preValidation, requireAuth, security } = bearerAuthentication(deps.tokens);
    const tags = ['bots'];
    const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

    app.get(
      '/trading/bots/',
      { preValidation, schema: { tags, security, response: { 200: botList, ...errors } } },
      async (request) => service.list(userId(request)),
    );
    app.post(
      '/trading/bots/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: botCreateRequest,
          response: { 201: botActionResponse, 409: botExistsError.or(apiErrorSchema), ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(userId(request), request.body)),
    );
    app.get(
      '/trading/bots/:id/',
      {
        preValidation,
        schema: { tags, security, params: idParams, response: { 200: bot, ...errors } },
      },
      async (request) => service.get(userId(request), request.params.id),
    );
    app.get(
      '/trading/bots/:id/live-vs-backtest/',
      {
        preValidation,
        schema: { tags, security, params: idParams, response: { 200: liveVsBacktest, ...errors } },
      },
      async (request) => service.liveVsBacktest(userId(request), request.params.id),
    );
    // start/, stop/ and restart/ are this route's actions (BOT_ACTIONS); anything else is a
    // field error.
    app.post(
      '/trading/bots/:id/:action/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: botActionParams,
          response: { 200: botActionResponse, ...errors },
        },
      },
      async (request) => service.act(userId(request), request.params.id, request.params.action),
    );
    app.delete(
      '/trading/bots/:id/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => service.remove(userId(request), request.params.id),
    );
  };
