import {
  apiErrorSchema,
  idParams,
  WEBHOOK_BODY_MAX_BYTES,
  webhookBatchActionRequest,
  webhookBatchActionResponse,
  webhookConfig,
  webhookConfigCreateRequest,
  webhookConfigListResponse,
  webhookConfigUpdateRequest,
  webhookExecutionListResponse,
  webhookExecutionsQuery,
  webhookLogListResponse,
  webhookLogsQuery,
  webhookRegenerateKeyRequest,
  webhookSignal,
  webhookSignalListResponse,
  webhookSignalsQuery,
  webhookStatsQuery,
  webhookStatsResponse,
  webhookTestRequest,
  webhookTestResponse,
} from '@quantsquare/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { bearerAuthentication } from '../../common/bearer-auth.js';
import type { WebhookReceiver } from './webhook-receiver.js';
import type { WebhooksService } from './webhooks.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

/** The receiver's URLs start here: the address the client called us at. */
const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** What the webhook routes share: the service, the login check and the OpenAPI tags. */
interface RouteContext {
  readonly service: WebhooksService;
  readonly preValidation: ReturnType<typeof bearerAuthentication>['preValidation'];
  readonly security: ReturnType<typeof bearerAuthentication>['security'];
  readonly tags: string[];
  readonly userId: (request: FastifyRequest) => number;
}
type App = Parameters<FastifyPluginAsyncZod>[0];

/** Configurations: list, create, edit, delete, keys and tests. */
function configRoutes(app: App, { service, preValidation, security, tags, userId }: RouteContext) {
  app.get(
    '/webhook-trading/configs/',
    {
      preValidation,
      schema: { tags, security, response: { 200: webhookConfigListResponse, ...errors } },
    },
    async (request) => service.list(userId(request), baseUrlOf(request)),
  );
  app.post(
    '/webhook-trading/configs/',
    {
      preValidation,
      schema: {
        tags,
        security,
        body: webhookConfigCreateRequest,
        response: { 201: webhookConfig, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.create(userId(request), request.body, baseUrlOf(request))),
  );
  app.post(
    '/webhook-trading/configs/batch-action/',
    {
      preValidation,
      schema: {
        tags,
        security,
        body: webhookBatchActionRequest,
        response: { 200: webhookBatchActionResponse, ...errors },
      },
    },
    async (request) => service.batch(userId(request), request.body),
  );
  app.get(
    '/webhook-trading/configs/:id/',
    {
      preValidation,
      schema: { tags, security, params: idParams, response: { 200: webhookConfig, ...errors } },
    },
    async (request) => service.get(userId(request), request.params.id, baseUrlOf(request)),
  );
  app.patch(
    '/webhook-trading/configs/:id/',
    {
      preValidation,
      schema: {
        tags,
        security,
        params: idParams,
        body: webhookConfigUpdateRequest,
        response: { 200: webhookConfig, ...errors },
      },
    },
    async (request) =>
      service.update(userId(request), request.params.id, request.body, baseUrlOf(request)),
  );
  app.delete(
    '/webhook-trading/configs/:id/',
    { preValidation, schema: { tags, security, params: idParams } },
    async (request, reply) => {
      await service.remove(userId(request), request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/webhook-trading/configs/:id/regenerate-key/',
    {
      preValidation,
      schema: {
        tags,
        security,
        params: idParams,
        body: webhookRegenerateKeyRequest,
        response: { 200: webhookConfig, ...errors },
      },
    },
    async (request) =>
      service.regenerateKey(userId(request), request.params.id, baseUrlOf(request), {
        googleCode: request.body?.google_code,
        address: request.ip,
      }),
  );
}

/** The trail: signals, executions, logs and their statistics. */
function trailRoutes(app: App, { service, preValidation, security, tags, userId }: RouteContext) {
  app.post(
    '/webhook-trading/configs/:id/test/',
    {
      preValidation,
      schema: {
        tags,
        security,
        params: idParams,
        body: webhookTestRequest,
        response: { 200: webhookTestResponse, ...errors },
      },
    },
    async (request) => service.test(userId(request), request.params.id, request.body),
  );
  app.get(
    '/webhook-trading/signals/',
    {
      preValidation,
      schema: {
        tags,
        security,
        querystring: webhookSignalsQuery,
        response: { 200: webhookSignalListResponse, ...errors },
      },
    },
    async (request) => service.signals(userId(request), request.query),
  );
  app.get(
    '/webhook-trading/signals/:id/',
    {
      preValidation,
      schema: { tags, security, params: idParams, response: { 200: webhookSignal, ...errors } },
    },
    async (request) => service.signal(userId(request), request.params.id),
  );
  app.get(
    '/webhook-trading/executions/',
    {
      preValidation,
      schema: {
        tags,
        security,
        querystring: webhookExecutionsQuery,
        response: { 200: webhookExecutionListResponse, ...errors },
      },
    },
    async (request) => service.executions(userId(request), request.query),
  );
  app.get(
    '/webhook-trading/logs/',
    {
      preValidation,
      schema: {
        tags,
        security,
        querystring: webhookLogsQuery,
        response: { 200: webhookLogListResponse, ...errors },
      },
    },
    async (request) => service.logs(userId(request), request.query),
  );
  app.get(
    '/webhook-trading/stats/',
    {
      preValidation,
      schema: {
        tags,
        security,
        querystring: webhookStatsQuery,
        response: { 200: webhookStatsResponse, ...errors },
      },
    },
    async (request) => service.stats(userId(request), request.query),
  );
}

/** /webhook-trading/… (issue 13): login required; another user's configuration is not found. */
export const webhooksRoutes =
  (deps: {
    service: WebhooksService;
    authentication: ReturnType<typeof bearerAuthentication>;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, requireAuth, security } = deps.authentication;
    const context: RouteContext = {
      service: deps.service,
      preValidation,
      security,
      tags: ['webhook-trading'],
      userId: (request) => requireAuth(request).userId,
    };
    configRoutes(app, context);
    trailRoutes(app, context);
  };

/** What the receiver reads at most; a body between WEBHOOK_BODY_MAX_BYTES and this is read and refused. */
const HOOK_READ_LIMIT_BYTES = 1024 * 1024;

/**
 * POST /webhook-trading/hook/{key}/ (no login). Its own context: any content type is read as
 * raw bytes (TradingView sends text/plain or application/json), and every error is a 400 — the
 * receiver answers only 202, 400, 404 or 429.
 */
export const webhookHookRoutes =
  (deps: { receiver: WebhookReceiver }): FastifyPluginAsyncZod =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: HOOK_READ_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    app.setErrorHandler(async (error, request, reply) => {
      const key = (request.params as { key?: unknown } | undefined)?.key;
      const code = (error as { code?: unknown }).code;
      if (typeof key === 'string' && code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        const answer = await deps.receiver.receive({
          key,
          body: undefined,
          ip: request.ip,
          oversized: true,
        });
        return reply.status(answer.status).send(answer.body);
      }
      const message = error instanceof Error ? error.message : 'Bad request';
      return reply.status(400).send({ error: message, code: 'bad_request' });
    });
    app.post(
      '/webhook-trading/hook/:key/',
      {
        bodyLimit: HOOK_READ_LIMIT_BYTES,
        schema: {
          tags: ['webhook-trading'],
          description: `TradingView alert receiver (no login). Body: JSON or text containing JSON, at most ${WEBHOOK_BODY_MAX_BYTES} bytes.`,
        },
      },
      async (request, reply) => {
        const key = (request.params as { key: string }).key;
        const body = request.body as Buffer | string | undefined;
        const answer = await deps.receiver.receive({ key, body, ip: request.ip });
        return reply.status(answer.status).send(answer.body);
      },
    );
  };
