import type { FastifyServerOptions } from 'fastify';

/** Paths never written to the log. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.password2',
  '*.old_password',
  '*.new_password',
  '*.code',
  '*.email_code',
  '*.google_code',
  '*.access',
  '*.refresh',
  '*.token',
  '*.secret',
  '*.totpSecret',
  '*.api_secret',
  '*.api_key',
  '*.api_password',
  '*.apiKey',
  '*.apiSecret',
  '*.apiPassword',
];

export type LoggerOptions = Exclude<FastifyServerOptions['logger'], undefined>;

export function loggerOptions(level: string): LoggerOptions {
  if (level === 'silent') return false;
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}
