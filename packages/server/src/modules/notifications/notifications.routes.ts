import {
  apiErrorSchema,
  notificationList,
  notificationListQuery,
  notificationReadRequest,
  notificationReadResponse,
  notificationSettings,
  notificationSettingsRequest,
  telegramLinkResponse,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import { messageLanguageOf } from '../../common/message-language.js';
import type { NotificationsService } from './notifications.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema };

/** The signed-in user's notifications, their read marks and settings, and the Telegram link. */
export const notificationsRoutes =
  (deps: {
    notifications: NotificationsService;
    authentication: BearerAuthentication;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, requireAuth, security } = deps.authentication;
    const tags = ['notifications'];
    const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

    app.get(
      '/notifications/',
      {
        preValidation,
        schema: {
          tags,
          security,
          querystring: notificationListQuery,
          response: { 200: notificationList, ...errors },
        },
      },
      async (request) => deps.notifications.list(userId(request), request.query),
    );
    app.post(
      '/notifications/read/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: notificationReadRequest,
          response: { 200: notificationReadResponse, ...errors },
        },
      },
      async (request) => deps.notifications.markRead(userId(request), request.body),
    );
    app.get(
      '/notifications/settings/',
      {
        preValidation,
        schema: { tags, security, response: { 200: notificationSettings, ...errors } },
      },
      async (request) => deps.notifications.settings(userId(request)),
    );
    app.put(
      '/notifications/settings/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: notificationSettingsRequest,
          response: { 200: notificationSettings, ...errors },
        },
      },
      async (request) =>
        deps.notifications.updateSettings(
          userId(request),
          request.body,
          messageLanguageOf(request.headers['accept-language']),
        ),
    );
    app.post(
      '/notifications/telegram/link/',
      {
        preValidation,
        schema: { tags, security, response: { 200: telegramLinkResponse, ...errors } },
      },
      async (request) => deps.notifications.telegramLink(userId(request)),
    );
    app.delete(
      '/notifications/telegram/link/',
      {
        preValidation,
        schema: { tags, security, response: { 200: notificationSettings, ...errors } },
      },
      async (request) => deps.notifications.unlinkTelegram(userId(request)),
    );
  };
