import {
  apiErrorSchema,
  type StaffClusterResponse,
  staffClusterResponse,
  staffCompleteRequest,
  staffDecisionResponse,
  staffQueueQuery,
  staffQueueResponse,
  staffReasonRequest,
} from '@quantsquare/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { StaffService } from './staff.service.js';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
};

/** /staff/… : the review queues and decisions (is_staff only; 403 for other users). */
export const staffRoutes =
  (deps: {
    staff: StaffService;
    authentication: BearerAuthentication;
    /** The cluster's processes and their leases (common/cluster.ts). */
    cluster: () => Promise<StaffClusterResponse>;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { staff } = deps;
    const { staffOnly, requireAuth, security } = deps.authentication;
    const tags = ['staff'];
    const staffId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;
    const list = {
      tags,
      security,
      querystring: staffQueueQuery,
      response: { 200: staffQueueResponse, ...errors },
    };
    const decision = {
      tags,
      security,
      params: idParams,
      response: { 200: staffDecisionResponse, ...errors },
    };

    app.get(
      '/staff/cluster/',
      {
        preValidation: staffOnly,
        schema: { tags, security, response: { 200: staffClusterResponse, ...errors } },
      },
      async () => deps.cluster(),
    );
    app.get('/staff/deposits/', { preValidation: staffOnly, schema: list }, async (request) =>
      staff.queue('deposit', request.query),
    );
    app.get('/staff/withdrawals/', { preValidation: staffOnly, schema: list }, async (request) =>
      staff.queue('withdraw', request.query),
    );
    app.post(
      '/staff/deposits/:id/approve/',
      { preValidation: staffOnly, schema: decision },
      async (request) => staff.approveDeposit(staffId(request), request.params.id),
    );
    app.post(
      '/staff/deposits/:id/reject/',
      { preValidation: staffOnly, schema: { ...decision, body: staffReasonRequest } },
      async (request) =>
        staff.rejectDeposit(staffId(request), request.params.id, request.body.reason),
    );
    app.post(
      '/staff/withdrawals/:id/processing/',
      { preValidation: staffOnly, schema: decision },
      async (request) => staff.markWithdrawalProcessing(staffId(request), request.params.id),
    );
    app.post(
      '/staff/withdrawals/:id/complete/',
      { preValidation: staffOnly, schema: { ...decision, body: staffCompleteRequest } },
      async (request) =>
        staff.completeWithdrawal(staffId(request), request.params.id, request.body.tx_hash),
    );
    app.post(
      '/staff/withdrawals/:id/fail/',
      { preValidation: staffOnly, schema: { ...decision, body: staffReasonRequest } },
      async (request) =>
        staff.failWithdrawal(staffId(request), request.params.id, request.body.reason),
    );
  };
