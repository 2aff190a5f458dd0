import {
  apiErrorSchema,
  commentCreateRequest,
  commentList,
  commentListQuery,
  followResponse,
  likeResponse,
  publicProfile,
  publicProfileDetail,
  strategyComment,
  userStrategiesQuery,
  userStrategyList,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { SocialService } from './social.service.js';
import { squareIdParams } from './square.routes.js';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  429: apiErrorSchema,
};

/** Follows, public profiles, comments and likes (document 2 §7 strategy square). */
export const socialRoutes =
  (deps: { social: SocialService; authentication: BearerAuthentication }): FastifyPluginAsyncZod =>
  async (app) => {
    const { preValidation, optionalAuth, requireAuth, currentUser, security } = deps.authentication;
    const { social } = deps;
    const tags = ['strategy-square'];
    const follow = {
      preValidation,
      schema: {
        tags,
        security,
        params: squareIdParams,
        response: { 200: followResponse, ...errors },
      },
    };
    app.post('/strategy-square/users/:id/follow/', follow, async (request) =>
      social.follow(requireAuth(request).userId, request.params.id),
    );
    app.delete('/strategy-square/users/:id/follow/', follow, async (request) =>
      social.unfollow(requireAuth(request).userId, request.params.id),
    );

    app.get(
      '/strategy-square/users/:id/profile/',
      {
        preValidation: optionalAuth,
        schema: { tags, params: squareIdParams, response: { 200: publicProfile, ...errors } },
      },
      async (request) => social.profile(request.params.id, currentUser(request)?.userId),
    );
    app.get(
      '/strategy-square/users/:id/detail/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          params: squareIdParams,
          querystring: userStrategiesQuery,
          response: { 200: publicProfileDetail, ...errors },
        },
      },
      async (request) =>
        social.profileDetail(request.params.id, currentUser(request)?.userId, request.query.period),
    );
    app.get(
      '/strategy-square/users/:id/strategies/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          params: squareIdParams,
          querystring: userStrategiesQuery,
          response: { 200: userStrategyList, ...errors },
        },
      },
      async (request) => social.userStrategies(request.params.id, request.query.period),
    );

    app.get(
      '/strategy-square/strategies/:id/comments/',
      {
        preValidation: optionalAuth,
        schema: {
          tags,
          params: squareIdParams,
          querystring: commentListQuery,
          response: { 200: commentList, ...errors },
        },
      },
      async (request) =>
        social.comments(
          request.params.id,
          currentUser(request)?.userId,
          request.query.page,
          request.query.page_size,
        ),
    );
    app.post(
      '/strategy-square/strategies/:id/comments/',
      {
        preValidation,
        schema: {
          tags,
          security,
          params: squareIdParams,
          body: commentCreateRequest,
          response: { 201: strategyComment, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await social.postComment(request.params.id, requireAuth(request).userId, request.body),
          ),
    );
    const like = {
      preValidation,
      schema: {
        tags,
        security,
        params: squareIdParams,
        response: { 200: likeResponse, ...errors },
      },
    };
    app.post('/strategy-square/comments/:id/like/', like, async (request) =>
      social.like(request.params.id, requireAuth(request).userId),
    );
    app.delete('/strategy-square/comments/:id/like/', like, async (request) =>
      social.unlike(request.params.id, requireAuth(request).userId),
    );
  };
