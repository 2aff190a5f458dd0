import {
  accountSecurity,
  apiErrorSchema,
  changePasswordRequest,
  googleCodeRequest,
  loginRequest,
  loginResponse,
  messageResponse,
  phoneLoginRequest,
  phoneRegisterRequest,
  profile,
  profileUpdateRequest,
  refreshRequest,
  registerRequest,
  registerResponse,
  resetPasswordRequest,
  sendCodeRequest,
  sendCodeResponse,
  tokenPair,
  twoFactorEnableResponse,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerAuthentication } from '../../common/bearer-auth.js';
import { messageLanguageOf } from '../../common/message-language.js';
import type { AuthService } from './auth.service.js';
import type { CodesService } from './codes.service.js';
import type { TokensService } from './tokens.service.js';
import type { TotpService } from './totp.service.js';

export interface AuthRoutesDeps {
  auth: AuthService;
  codes: CodesService;
  tokens: TokensService;
  totp: TotpService;
  /** Sign-in calls per IP per minute. */
  ipRatePerMinute: number;
}

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema };

type App = Parameters<FastifyPluginAsyncZod>[0];

/** Signing in and out: codes, logins, registration, password reset, token refresh. */
function signInRoutes(app: App, deps: AuthRoutesDeps, tags: string[]) {
  const { auth, codes, tokens } = deps;
  const signIn = { rateLimit: { max: deps.ipRatePerMinute, timeWindow: 60_000 } };
  app.post(
    '/auth/send-code/',
    {
      config: signIn,
      schema: { tags, body: sendCodeRequest, response: { 200: sendCodeResponse, ...errors } },
    },
    // The code is written in the reader's language (the web sends it as Accept-Language).
    async (request) =>
      codes.send(request.body, messageLanguageOf(request.headers['accept-language'])),
  );
  app.post(
    '/auth/login/',
    {
      config: signIn,
      schema: { tags, body: loginRequest, response: { 200: loginResponse, ...errors } },
    },
    async (request) => auth.login(request.body, request.ip),
  );
  app.post(
    '/auth/phone-login/',
    {
      config: signIn,
      schema: { tags, body: phoneLoginRequest, response: { 200: loginResponse, ...errors } },
    },
    async (request) => auth.phoneLogin(request.body, request.ip),
  );
  app.post(
    '/auth/register/',
    {
      config: signIn,
      schema: { tags, body: registerRequest, response: { 201: registerResponse, ...errors } },
    },
    async (request, reply) => reply.status(201).send(await auth.register(request.body)),
  );
  app.post(
    '/auth/phone-register/',
    {
      config: signIn,
      schema: {
        tags,
        body: phoneRegisterRequest,
        response: { 201: registerResponse, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await auth.phoneRegister(request.body)),
  );
  app.post(
    '/auth/reset-password/',
    {
      config: signIn,
      schema: {
        tags,
        summary: 'Set a new password with a reset_password code; ends every session',
        body: resetPasswordRequest,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => auth.resetPassword(request.body, request.ip),
  );
  app.post(
    '/auth/refresh/',
    {
      config: signIn,
      schema: { tags, body: refreshRequest, response: { 200: tokenPair, ...errors } },
    },
    async (request) => tokens.refresh(request.body.refresh),
  );
  app.post(
    '/auth/logout/',
    { schema: { tags, body: refreshRequest, response: { 200: messageResponse, ...errors } } },
    async (request) => {
      await tokens.logout(request.body.refresh);
      return { success: true, message: 'Logged out' };
    },
  );
}

/** The signed-in user's own account: security, profile, password and two-factor. */
function accountRoutes(app: App, deps: AuthRoutesDeps, tags: string[]) {
  const { auth, totp } = deps;
  const signIn = { rateLimit: { max: deps.ipRatePerMinute, timeWindow: 60_000 } };
  const { preValidation, requireAuth, security: bearer } = bearerAuthentication(deps.tokens);
  app.get(
    '/auth/account-security/',
    {
      preValidation,
      schema: { tags, security: bearer, response: { 200: accountSecurity, ...errors } },
    },
    async (request) => auth.accountSecurity(requireAuth(request)),
  );
  app.get(
    '/auth/profile/',
    { preValidation, schema: { tags, security: bearer, response: { 200: profile, ...errors } } },
    async (request) => auth.profile(requireAuth(request)),
  );
  app.put(
    '/auth/profile/',
    {
      preValidation,
      schema: {
        tags,
        security: bearer,
        body: profileUpdateRequest,
        response: { 200: profile, ...errors },
      },
    },
    async (request) => auth.updateProfile(requireAuth(request), request.body),
  );
  app.post(
    '/auth/change-password/',
    {
      // Guessing the current password is limited per address too (and locked per account).
      config: signIn,
      preValidation,
      schema: {
        tags,
        security: bearer,
        body: changePasswordRequest,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => auth.changePassword(requireAuth(request), request.body, request.ip),
  );
  app.post(
    '/auth/2fa/enable/',
    {
      preValidation,
      schema: { tags, security: bearer, response: { 200: twoFactorEnableResponse, ...errors } },
    },
    async (request) => totp.enable(requireAuth(request).userId),
  );
  app.post(
    '/auth/2fa/verify/',
    {
      config: signIn,
      preValidation,
      schema: {
        tags,
        security: bearer,
        body: googleCodeRequest,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) =>
      totp.verify(requireAuth(request).userId, request.body.google_code, request.ip),
  );
  app.post(
    '/auth/2fa/disable/',
    {
      config: signIn,
      preValidation,
      schema: {
        tags,
        security: bearer,
        body: googleCodeRequest,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) =>
      totp.disable(requireAuth(request).userId, request.body.google_code, request.ip),
  );
}

export const authRoutes =
  (deps: AuthRoutesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['auth'];
    signInRoutes(app, deps, tags);
    accountRoutes(app, deps, tags);
  };
