import {
  apiErrorSchema,
  avatarDeleteResponse,
  avatarUploadResponse,
  FIELD_ERROR_CODES,
  ownProfile,
  PROFILE_MESSAGES,
  profileUpdateRequest,
  WALLET_ERROR_CODES,
} from '@quantsquare/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import { DomainError, ValidationFailed } from '../../common/errors.js';
import { readUploadedFile, type UploadRefusals } from '../../uploads/uploaded-file.js';
import type { ProfileService } from './profile.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

/** The spec's texts for a missing, oversized or malformed avatar upload. */
const avatarRefusals: UploadRefusals = {
  missing: () =>
    ValidationFailed.field('avatar', PROFILE_MESSAGES.fileRequired, FIELD_ERROR_CODES.required),
  tooLarge: () =>
    new DomainError(413, WALLET_ERROR_CODES.fileTooLarge, PROFILE_MESSAGES.fileTooLarge),
  malformed: () =>
    ValidationFailed.field(
      'avatar',
      PROFILE_MESSAGES.uploadMalformed,
      FIELD_ERROR_CODES.invalidFormat,
    ),
};

/** /strategy-square/profile/… (document 2 §7): the signed-in user's own profile. */
export const profileRoutes =
  (deps: {
    profile: ProfileService;
    authentication: BearerAuthentication;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { profile } = deps;
    const { preValidation, requireAuth, security } = deps.authentication;
    const tags = ['profile'];
    const userId = (request: FastifyRequest) => requireAuth(request).userId;

    app.get(
      '/strategy-square/profile/',
      { preValidation, schema: { tags, security, response: { 200: ownProfile, ...errors } } },
      async (request) => profile.own(userId(request)),
    );
    app.put(
      '/strategy-square/profile/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: profileUpdateRequest,
          response: { 200: ownProfile, ...errors },
        },
      },
      async (request) => profile.update(userId(request), request.body),
    );
    app.post(
      '/strategy-square/profile/upload-avatar/',
      {
        preValidation,
        schema: {
          tags,
          security,
          consumes: ['multipart/form-data'],
          response: { 200: avatarUploadResponse, 413: apiErrorSchema, ...errors },
        },
      },
      async (request) =>
        profile.uploadAvatar(
          userId(request),
          await readUploadedFile(request, 'avatar', avatarRefusals),
        ),
    );
    app.delete(
      '/strategy-square/profile/delete-avatar/',
      {
        preValidation,
        schema: { tags, security, response: { 200: avatarDeleteResponse, ...errors } },
      },
      async (request) => profile.deleteAvatar(userId(request)),
    );
  };
