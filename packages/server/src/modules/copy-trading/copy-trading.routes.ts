import {
  apiErrorSchema,
  COPY_ACTIONS,
  copyCreateRequest,
  copyDetailResponse,
  copyFollowersResponse,
  copyFollowingResponse,
  copyRelation,
  copySimulationQuery,
  copySimulationResponse,
  copyUpdateRequest,
  messageResponse,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import { messageLanguageOf } from '../../common/message-language.js';
import type { CopySimulationService } from './copy-simulation.service.js';
import type { CopyTradingService } from './copy-trading.service.js';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
  503: apiErrorSchema,
};

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const actionParams = idParams.extend({ action: z.enum(COPY_ACTIONS) });

/** The copy modal's preview: the strategy's recorded fills replayed as the copy engine would. */
function simulationRoute(
  app: Parameters<FastifyPluginAsyncZod>[0],
  copySimulation: CopySimulationService,
  optionalAuth: BearerAuthentication['optionalAuth'],
) {
  const tags = ['copy-trading'];
  app.get(
    '/strategy-square/strategies/:id/copy-simulation/',
    {
      preValidation: optionalAuth,
      schema: {
        tags,
        params: idParams,
        querystring: copySimulationQuery,
        response: { 200: copySimulationResponse, ...errors },
      },
    },
    async (request) =>
      copySimulation.simulate(
        request.params.id,
        {
          copyAmount: request.query.copy_amount,
          mode: request.query.copy_mode,
          days: request.query.days,
          venue: request.query.exchange,
        },
        messageLanguageOf(request.headers['accept-language']),
      ),
  );
}

/** Copy trading (document 2 §7): the follower's relations, and the leader's followers. */
export const copyTradingRoutes =
  (deps: {
    copyTrading: CopyTradingService;
    copySimulation: CopySimulationService;
    authentication: BearerAuthentication;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, optionalAuth, requireAuth, security } = deps.authentication;
    const { copyTrading } = deps;
    const tags = ['copy-trading'];
    const base = '/strategy-square/copy-trading';

    simulationRoute(app, deps.copySimulation, optionalAuth);
    app.post(
      `${base}/create/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          body: copyCreateRequest,
          response: { 201: copyRelation, ...errors },
        },
      },
      async (request, reply) => {
        const relation = await copyTrading.create(requireAuth(request).userId, request.body);
        return reply.status(201).send(relation);
      },
    );
    app.get(
      `${base}/following/`,
      {
        preValidation,
        schema: { tags, security, response: { 200: copyFollowingResponse, ...errors } },
      },
      async (request) => copyTrading.following(requireAuth(request).userId),
    );
    app.get(
      `${base}/followers/`,
      {
        preValidation,
        schema: { tags, security, response: { 200: copyFollowersResponse, ...errors } },
      },
      async (request) => copyTrading.followers(requireAuth(request).userId),
    );
    app.get(
      `${base}/:id/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: copyDetailResponse, ...errors },
        },
      },
      async (request) => copyTrading.detail(requireAuth(request).userId, request.params.id),
    );
    app.put(
      `${base}/:id/:action/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          params: actionParams,
          response: { 200: copyRelation, ...errors },
        },
      },
      async (request) =>
        copyTrading.act(requireAuth(request).userId, request.params.id, request.params.action),
    );
    app.patch(
      `${base}/:id/update/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          body: copyUpdateRequest,
          response: { 200: copyRelation, ...errors },
        },
      },
      async (request) =>
        copyTrading.update(requireAuth(request).userId, request.params.id, request.body),
    );
    app.delete(
      `${base}/:id/delete/`,
      {
        preValidation,
        schema: { tags, security, params: idParams, response: { 200: messageResponse, ...errors } },
      },
      async (request) => {
        await copyTrading.remove(requireAuth(request).userId, request.params.id);
        return { success: true, message: 'Copy relation deleted' };
      },
    );
  };
