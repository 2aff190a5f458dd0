import {
  apiErrorSchema,
  ERROR_CODES,
  OPTIMISATION_SOCKET_PATH,
  optimisationAnswer,
  optimisationCreated,
  optimisationList,
  optimisationRequest,
} from '@quantsquare/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccessTokenVerifier, BearerAuthentication } from '../../common/bearer-auth.js';
import { OPTIMISATION_MESSAGES, type OptimisationsService } from './optimisations.service.js';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  404: apiErrorSchema,
  503: apiErrorSchema,
};

/** /trading/optimisations/ (the optimisation issue): a user's walk-forward optimisations. */
export const optimisationsRoutes =
  (deps: {
    optimisations: OptimisationsService;
    authentication: BearerAuthentication;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { optimisations } = deps;
    const { preValidation, requireAuth, security } = deps.authentication;
    const tags = ['trading'];
    const path = '/trading/optimisations/';

    app.post(
      path,
      {
        preValidation,
        schema: {
          tags,
          security,
          body: optimisationRequest,
          response: { 201: optimisationCreated, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await optimisations.create(requireAuth(request).userId, request.body)),
    );
    app.get(
      path,
      { preValidation, schema: { tags, security, response: { 200: optimisationList, ...errors } } },
      async (request) => optimisations.list(requireAuth(request).userId),
    );
    app.get(
      `${path}:id/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: optimisationAnswer, ...errors },
        },
      },
      async (request) => optimisations.get(requireAuth(request).userId, request.params.id),
    );
    app.delete(
      `${path}:id/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: optimisationAnswer, ...errors },
        },
      },
      async (request) => optimisations.cancel(requireAuth(request).userId, request.params.id),
    );
  };

const socketQuery = z.object({ access_token: z.string().min(1).max(4096) });

/**
 * /ws/optimisations/{id}?access_token=…: the run's answer on connect, then each batch of results
 * and the end. A browser cannot set headers on a websocket, so the access token comes in the
 * query; another user's id (or a bad token) is refused with 404 before any websocket exists.
 */
export const optimisationSocketRoutes =
  (deps: {
    optimisations: OptimisationsService;
    tokens: AccessTokenVerifier;
  }): FastifyPluginAsync =>
  async (app) => {
    const userOf = new WeakMap<object, number>();
    app.get(
      OPTIMISATION_SOCKET_PATH,
      {
        websocket: true,
        schema: { hide: true },
        preValidation: async (request, reply) => {
          const id = idParams.safeParse(request.params).data?.id;
          const token = socketQuery.safeParse(request.query).data?.access_token;
          const context = token
            ? await deps.tokens.authenticate(token).catch(() => undefined)
            : undefined;
          const isOwner =
            id !== undefined &&
            context !== undefined &&
            (await deps.optimisations.get(context.userId, id).then(
              () => true,
              () => false,
            ));
          if (!isOwner || !context) {
            await reply
              .code(404)
              .send({ error: OPTIMISATION_MESSAGES.notFound, code: ERROR_CODES.notFound });
            return;
          }
          userOf.set(request, context.userId);
        },
      },
      async (socket, request) => {
        const id = idParams.safeParse(request.params).data?.id;
        const userId = userOf.get(request);
        if (id === undefined || userId === undefined) return socket.close(1008, 'not found');
        const stop = await deps.optimisations.listen(userId, id, (frame) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
          if (frame.type === 'finished') socket.close(1000, 'finished');
        });
        socket.on('close', stop);
      },
    );
  };
