import {
  apiErrorSchema,
  coinBalanceQuery,
  coinBalanceResponse,
  depositInfoResponse,
  depositRequest,
  depositResponse,
  generateInvitationResponse,
  invitationStats,
  purchaseVipRequest,
  purchaseVipResponse,
  referralsQuery,
  referralsResponse,
  vipInfo,
  withdrawRequest,
  withdrawResponse,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { InvitationsService } from './invitations.service.js';
import type { WalletService } from './wallet.service.js';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

/** The wallet's calls of document 2 §7 (login required): balance, deposit, withdraw, VIP, invitations. */
export const walletRoutes =
  (deps: {
    wallet: WalletService;
    invitations: InvitationsService;
    authentication: BearerAuthentication;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { wallet, invitations } = deps;
    const { preValidation, requireAuth, security } = deps.authentication;
    const tags = ['wallet'];
    const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

    app.get(
      '/auth/balance/',
      {
        preValidation,
        schema: {
          tags,
          security,
          querystring: coinBalanceQuery,
          response: { 200: coinBalanceResponse, ...errors },
        },
      },
      async (request) => wallet.balance(userId(request), request.query),
    );
    app.get(
      '/auth/deposit/',
      {
        preValidation,
        schema: { tags, security, response: { 200: depositInfoResponse, ...errors } },
      },
      async () => wallet.depositInfo(),
    );
    app.post(
      '/auth/deposit/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: depositRequest,
          response: { 201: depositResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await wallet.deposit(userId(request), request.body)),
    );
    app.post(
      '/auth/withdraw/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: withdrawRequest,
          response: { 201: withdrawResponse, 409: apiErrorSchema, 429: apiErrorSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await wallet.withdraw(userId(request), request.body, request.ip)),
    );
    app.get(
      '/auth/vip/',
      { preValidation, schema: { tags, security, response: { 200: vipInfo, ...errors } } },
      async (request) => wallet.vipInfo(userId(request)),
    );
    app.post(
      '/auth/purchase-vip/',
      {
        preValidation,
        schema: {
          tags,
          security,
          body: purchaseVipRequest,
          response: { 200: purchaseVipResponse, 409: apiErrorSchema, ...errors },
        },
      },
      async (request) => wallet.purchaseVip(userId(request), request.body),
    );
    app.get(
      '/auth/invitation-stats/',
      { preValidation, schema: { tags, security, response: { 200: invitationStats, ...errors } } },
      async (request) => invitations.stats(userId(request)),
    );
    app.get(
      '/auth/referrals/',
      {
        preValidation,
        schema: {
          tags,
          security,
          querystring: referralsQuery,
          response: { 200: referralsResponse, ...errors },
        },
      },
      async (request) => invitations.referrals(userId(request), request.query),
    );
    app.post(
      '/auth/generate-invitation/',
      {
        preValidation,
        schema: { tags, security, response: { 200: generateInvitationResponse, ...errors } },
      },
      async (request) => invitations.generate(userId(request)),
    );
  };
