import {
  apiErrorSchema,
  userStrategyAnswer,
  userStrategyListAnswer,
  userStrategyPayload,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { UserStrategiesService } from './user-strategies.service.js';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
};

/** /trading/user-strategies/ (issue 26 §1): a user's own rule-based strategies. */
export const userStrategiesRoutes =
  (deps: {
    userStrategies: UserStrategiesService;
    authentication: BearerAuthentication;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { userStrategies } = deps;
    const { preValidation, requireAuth, security } = deps.authentication;
    const tags = ['trading'];
    const path = '/trading/user-strategies/';

    app.get(
      path,
      {
        preValidation,
        schema: { tags, security, response: { 200: userStrategyListAnswer, ...errors } },
      },
      async (request) => userStrategies.list(requireAuth(request).userId),
    );
    app.post(
      path,
      {
        preValidation,
        schema: {
          tags,
          security,
          body: userStrategyPayload,
          response: { 201: userStrategyAnswer, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await userStrategies.create(requireAuth(request).userId, request.body)),
    );
    app.get(
      `${path}:id/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: userStrategyAnswer, ...errors },
        },
      },
      async (request) => userStrategies.get(requireAuth(request).userId, request.params.id),
    );
    app.put(
      `${path}:id/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          body: userStrategyPayload,
          response: { 200: userStrategyAnswer, ...errors },
        },
      },
      async (request) =>
        userStrategies.update(requireAuth(request).userId, request.params.id, request.body),
    );
    app.delete(
      `${path}:id/`,
      {
        preValidation,
        schema: { tags, security, params: idParams, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await userStrategies.remove(requireAuth(request).userId, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
