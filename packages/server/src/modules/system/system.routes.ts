import { healthResponse, outboxList, outboxQuery } from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DatabaseKind } from '../../db/database.js';
import type { OutboxRepository } from './outbox.repository.js';

export const healthRoutes =
  (deps: { databaseKind: DatabaseKind; version: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/health/',
      { schema: { tags: ['system'], response: { 200: healthResponse } } },
      async () => ({ status: 'ok' as const, database: deps.databaseKind, version: deps.version }),
    );
  };

/** Dev-only: the messages that would have been sent. Registered only outside production. */
export const devOutboxRoutes =
  (deps: { outbox: OutboxRepository }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/dev/outbox/',
      { schema: { tags: ['dev'], querystring: outboxQuery, response: { 200: outboxList } } },
      async (request) => {
        const rows = await deps.outbox.list(request.query.to);
        const results = rows.map((r) => ({
          id: r.id,
          channel: r.channel,
          to: r.to,
          subject: r.subject,
          body: r.body,
          code: r.code,
          created_at: r.createdAt.toISOString(),
        }));
        return { results, count: results.length };
      },
    );
  };
