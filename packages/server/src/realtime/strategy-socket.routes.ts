import { SQUARE_ERROR_CODES, SQUARE_MESSAGES } from '@quantsquare/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { StrategyHub } from './strategy-hub.js';

const params = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
/** `?after=<trade id>`: the last trade the viewer saw (a reconnection), to replay what followed. */
const query = z.object({ after: z.string().min(1).max(200).optional() });

/**
 * /ws/strategies/{id}: live trades, positions and statistics of a public strategy. The upgrade
 * of an unknown or private strategy is refused with 404 before any websocket exists.
 */
export const strategySocketRoutes =
  (deps: {
    hub: StrategyHub;
    isPublic: (accountId: number) => Promise<boolean>;
  }): FastifyPluginAsync =>
  async (app) => {
    const accountIdOf = (raw: unknown) => params.safeParse(raw).data?.id;
    app.get(
      '/ws/strategies/:id',
      {
        websocket: true,
        schema: { hide: true },
        preValidation: async (request, reply) => {
          const id = accountIdOf(request.params);
          if (id === undefined || !(await deps.isPublic(id))) {
            await reply.code(404).send({
              error: SQUARE_MESSAGES.strategyNotFound,
              code: SQUARE_ERROR_CODES.strategyNotFound,
            });
          }
        },
      },
      (socket, request) => {
        const id = accountIdOf(request.params);
        if (id === undefined) return socket.close(1008, 'bad strategy id');
        const after = query.safeParse(request.query).data?.after;
        deps.hub.join(id, socket, after === undefined ? {} : { afterEventId: after });
      },
    );
  };
