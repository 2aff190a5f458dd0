import { healthResponse, outboxList, outboxQuery } from '@quantsquare/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NotFound } from '../../common/errors.js';
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

const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * A request from this machine itself: a loopback peer that no proxy relayed (a local reverse
 * proxy would make every visitor look local, so a relayed request is never one).
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  if (PROXY_HEADERS.some((header) => request.headers[header] !== undefined)) return false;
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || /^127\./.test(address) || /^::ffff:127\./i.test(address);
}

/**
 * Dev-only: the messages that went to the outbox instead of a real delivery. Registered only
 * outside production while a channel has no real delivery, and answered only to this machine:
 * anyone else reading it could sign in as anybody with the codes it holds.
 */
export const devOutboxRoutes =
  (deps: { outbox: OutboxRepository }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/dev/outbox/',
      {
        // Others get the answer of a route that does not exist.
        onRequest: async (request) => {
          if (!isLocalRequest(request)) {
            throw new NotFound(`Not found: ${request.method} ${request.url.split('?')[0]}`);
          }
        },
        schema: { tags: ['dev'], querystring: outboxQuery, response: { 200: outboxList } },
      },
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
