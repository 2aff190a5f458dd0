import {
  announcement,
  announcementList,
  announcementListQuery,
  announcementWriteRequest,
  apiErrorSchema,
  ERROR_CODES,
  FIELD_ERROR_CODES,
  HELP_MESSAGES,
  helpContact,
  helpImageUpload,
  markReadResponse,
  unreadCount,
} from '@quantsquare/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import { DomainError, ValidationFailed } from '../../common/errors.js';
import { readUploadedFile, type UploadRefusals } from '../../uploads/uploaded-file.js';
import type { HelpService } from './help.service.js';

/** An announcement id in a path: a positive 32-bit integer (the column's range). */
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
};

/** Errors while reading a multipart body are the client's: our own answers, never a 500. */
const imageRefusals: UploadRefusals = {
  missing: () =>
    ValidationFailed.field('image', HELP_MESSAGES.imageRequired, FIELD_ERROR_CODES.required),
  tooLarge: () =>
    new DomainError(413, ERROR_CODES.payloadTooLarge, HELP_MESSAGES.imageTooLarge, {
      image: [HELP_MESSAGES.imageTooLarge],
    }),
  malformed: () =>
    ValidationFailed.field('image', HELP_MESSAGES.uploadMalformed, FIELD_ERROR_CODES.invalidFormat),
};

/**
 * /help/… (document 2 §7 "Help and announcements"): anyone reads announcements (signed-in
 * readers get is_new), staff write them; visitors' writes answer 401, other users' 403.
 */
export const helpRoutes =
  (deps: { help: HelpService; authentication: BearerAuthentication }): FastifyPluginAsyncZod =>
  async (app) => {
    const { help } = deps;
    const { optionalAuth, preValidation, staffOnly, requireAuth, currentUser, security } =
      deps.authentication;
    const tags = ['help'];
    const readerId = (request: FastifyRequest) => currentUser(request)?.userId;

    app.get(
      '/help/announcements/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          security,
          querystring: announcementListQuery,
          response: { 200: announcementList, ...errors },
        },
      },
      async (request) => help.list(request.query, readerId(request)),
    );
    app.post(
      '/help/announcements/',
      {
        preValidation: staffOnly,
        schema: {
          tags,
          security,
          body: announcementWriteRequest,
          response: { 201: announcement, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await help.create(requireAuth(request).userId, request.body)),
    );
    app.get(
      '/help/announcements/unread-count/',
      {
        preValidation: optionalAuth,
        schema: { tags, security, response: { 200: unreadCount, ...errors } },
      },
      async (request) => help.unreadCount(readerId(request)),
    );
    app.get(
      '/help/announcements/:id/',
      {
        preValidation: optionalAuth,
        schema: { tags, security, params: idParams, response: { 200: announcement, ...errors } },
      },
      async (request) =>
        help.get(request.params.id, { userId: readerId(request), address: request.ip }),
    );
    app.put(
      '/help/announcements/:id/',
      {
        preValidation: staffOnly,
        schema: {
          tags,
          security,
          params: idParams,
          body: announcementWriteRequest,
          response: { 200: announcement, ...errors },
        },
      },
      async (request) => help.update(request.params.id, requireAuth(request).userId, request.body),
    );
    app.delete(
      '/help/announcements/:id/',
      {
        preValidation: staffOnly,
        schema: { tags, security, params: idParams, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await help.remove(request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/help/announcements/:id/mark-read/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: markReadResponse, ...errors },
        },
      },
      async (request) => help.markRead(request.params.id, requireAuth(request).userId),
    );
    app.post(
      '/help/upload-image/',
      {
        preValidation: staffOnly,
        schema: {
          tags,
          security,
          consumes: ['multipart/form-data'],
          response: { 201: helpImageUpload, 413: apiErrorSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await help.uploadImage(await readUploadedFile(request, 'image', imageRefusals))),
    );
    app.get('/help/contact/', { schema: { tags, response: { 200: helpContact } } }, async () =>
      help.contact(),
    );
  };
