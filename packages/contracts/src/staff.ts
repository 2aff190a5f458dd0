import { z } from 'zod';
import { TRANSACTION_STATUSES, walletTransaction } from './wallet.js';

// The staff console (issue 10): review queues of deposits and withdrawals and the decisions on
// them, under /api/staff/ (is_staff only; 403 for other users).

export const STAFF_REASON_MAX_LENGTH = 500;
export const STAFF_PAGE_SIZE_DEFAULT = 20;
export const STAFF_PAGE_SIZE_MAX = 100;

/** A queue's status filter; `all` lists every status. */
export const STAFF_STATUS_FILTERS = [...TRANSACTION_STATUSES, 'all'] as const;
export type StaffStatusFilter = (typeof STAFF_STATUS_FILTERS)[number];

export const STAFF_ACTIONS = ['approve', 'reject', 'processing', 'complete', 'fail'] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

export const STAFF_MESSAGES = {
  notPending: 'This request has already been decided',
  reasonRequired: 'A reason is required',
  txHashRequired: 'Transaction hash is required',
  txHashInvalid: 'Invalid transaction hash for this network',
  notFound: 'Request not found',
  ownRequest: 'Staff cannot decide their own requests; another staff member must',
} as const;

/** GET /api/staff/deposits/ and /api/staff/withdrawals/. */
export const staffQueueQuery = z.strictObject({
  status: z.enum(STAFF_STATUS_FILTERS).default('pending'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(STAFF_PAGE_SIZE_MAX)
    .default(STAFF_PAGE_SIZE_DEFAULT),
});
export type StaffQueueQuery = z.infer<typeof staffQueueQuery>;

/** One recorded decision, naming the staff user who took it. */
export const staffDecision = z.object({
  id: z.number().int(),
  action: z.enum(STAFF_ACTIONS),
  staff_user_id: z.number().int(),
  staff_email: z.string().nullable(),
  from_status: z.enum(TRANSACTION_STATUSES),
  to_status: z.enum(TRANSACTION_STATUSES),
  reason: z.string().nullable(),
  tx_hash: z.string().nullable(),
  created_at: z.string(),
});
export type StaffDecision = z.infer<typeof staffDecision>;

/** A deposit or withdrawal as staff see it: the row, its user, and its decisions (oldest first). */
export const staffRequest = walletTransaction.extend({
  user_id: z.number().int(),
  user_email: z.string().nullable(),
  user_phone: z.string().nullable(),
  decisions: z.array(staffDecision),
});
export type StaffRequest = z.infer<typeof staffRequest>;

export const staffQueueResponse = z.object({
  results: z.array(staffRequest),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type StaffQueueResponse = z.infer<typeof staffQueueResponse>;

const reason = z
  .string()
  .trim()
  .min(1, { message: STAFF_MESSAGES.reasonRequired })
  .max(STAFF_REASON_MAX_LENGTH);

/** POST /api/staff/deposits/{id}/reject/ and /api/staff/withdrawals/{id}/fail/. */
export const staffReasonRequest = z.strictObject({ reason });
export type StaffReasonRequest = z.infer<typeof staffReasonRequest>;

/** POST /api/staff/withdrawals/{id}/complete/: the payout's hash, in the network's format. */
export const staffCompleteRequest = z.strictObject({
  tx_hash: z.string().trim().min(1, { message: STAFF_MESSAGES.txHashRequired }).max(128),
});
export type StaffCompleteRequest = z.infer<typeof staffCompleteRequest>;

/** Every decision answers the request as it now is (409 `not_pending` when already decided). */
export const staffDecisionResponse = staffRequest;

/** A server process of the deployment, as GET /api/staff/cluster/ lists it. */
export const clusterMember = z.object({
  id: z.string(),
  /** `all` (HTTP and workers in one process), `api` or `worker`. */
  role: z.enum(['all', 'api', 'worker']),
  host: z.string(),
  pid: z.number().int(),
  started_at: z.string(),
  last_heartbeat: z.string(),
  /** Whether it beat within the heartbeat's time to live (a dead one is listed for an hour). */
  is_live: z.boolean(),
  /** The leases it holds now, by kind: `bot`, `copy`, `webhook`, `job`. */
  leases: z.record(z.string(), z.number().int()),
});
export type ClusterMember = z.infer<typeof clusterMember>;

/** GET /api/staff/cluster/: the processes, live first, each with the leases it holds. */
export const staffClusterResponse = z.object({ members: z.array(clusterMember) });
export type StaffClusterResponse = z.infer<typeof staffClusterResponse>;
