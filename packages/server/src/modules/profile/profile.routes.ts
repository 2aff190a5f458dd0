import {
  apiErrorSchema,
  avatarDeleteResponse,
  avatarUploadResponse,
  ownProfile,
  PROFILE_MESSAGES,
  profileUpdateRequest,
} from '@quantsquare/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import { DomainError, ValidationFailed } from '../../common/errors.js';
import type { ProfileService } from './profile.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

const hasCode = (error: unknown, code: string) =>
  error instanceof Error && (error as { code?: unknown }).code === code;

/** The bytes of the multipart field `avatar`; the spec's texts for a missing or oversized file. */
async function avatarBytes(request: FastifyRequest): Promise<Buffer> {
  const tooLarge = () => new DomainError(413, 'file_too_large', PROFILE_MESSAGES.fileTooLarge);
  const missing = () => ValidationFailed.field('avatar', PROFILE_MESSAGES.fileRequired);
  try {
    const file = await request.file();
    if (file?.fieldname !== 'avatar') throw missing();
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (hasCode(error, 'FST_REQ_FILE_TOO_LARGE') || hasCode(error, 'FST_FILES_LIMIT')) {
      throw tooLarge();
    }
    if (hasCode(error, 'FST_INVALID_MULTIPART_CONTENT_TYPE')) throw missing();
    throw error;
  }
}

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
      async (request) => profile.uploadAvatar(userId(request), await avatarBytes(request)),
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
