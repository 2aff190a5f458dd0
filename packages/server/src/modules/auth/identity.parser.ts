import { emailSchema, phoneSchema } from '@quantsquare/contracts';

export type Parsed = { ok: true; value: string } | { ok: false; message: string };

function parseWith(schema: typeof emailSchema | typeof phoneSchema, raw: string): Parsed {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: result.error.issues[0]?.message ?? 'Invalid value' };
}

/** E-mails are compared lower-case and trimmed, the same way the contracts schema stores them. */
export const parseEmail = (raw: string): Parsed => parseWith(emailSchema, raw);
export const parsePhone = (raw: string): Parsed => parseWith(phoneSchema, raw);
