import { z } from 'zod';

export const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponse>;

export const OUTBOX_CHANNELS = ['email', 'sms'] as const;

export const outboxQuery = z.strictObject({
  to: z.string().trim().max(254).optional(),
});

export const outboxMessage = z.object({
  id: z.number().int(),
  channel: z.enum(OUTBOX_CHANNELS),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  code: z.string().nullable(),
  created_at: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

export const outboxList = z.object({ results: z.array(outboxMessage), count: z.number().int() });
export type OutboxList = z.infer<typeof outboxList>;
