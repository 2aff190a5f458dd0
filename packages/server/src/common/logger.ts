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

/** What services log through (pino's shape, or a test's capture). */
export interface ServiceLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export type LoggerOptions = Exclude<FastifyServerOptions['logger'], undefined>;

/** A log destination (tests capture the lines); stdout by default. */
export interface LogStream {
  write(line: string): void;
}

// Database errors carry what was sent and stored: drizzle's message and `params` hold every
// query parameter (encrypted secrets included), PostgreSQL's `detail` and `where` quote row
// values. None of it is logged: only these keys are, with the SQL text (placeholders only).
const SAFE_ERROR_KEYS = [
  'code',
  'severity',
  'schema',
  'table',
  'column',
  'constraint',
  'routine',
  'statusCode',
  'kind',
  'retryAfterMs',
] as const;

/** Cuts a drizzle "Failed query: …\nparams: …" text before its parameters. */
const withoutParams = (text: string): string => {
  const at = text.indexOf('\nparams:');
  if (at < 0) return text;
  const stackStart = text.indexOf('\n    at ', at);
  return `${text.slice(0, at)}${stackStart < 0 ? '' : text.slice(stackStart)}`;
};

/** A database server's error (PostgreSQL or PGlite): a SQLSTATE code and a severity. */
const isDatabaseError = (record: Record<string, unknown>) =>
  typeof record.severity === 'string' &&
  typeof record.code === 'string' &&
  /^[0-9A-Z]{5}$/.test(record.code);

/** PostgreSQL quotes the offending value in some messages (`invalid input syntax … "value"`). */
const withoutQuotedValues = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '"…"');

/** The error serializer of every log line's `err`: name, message, stack, codes, cause; no values. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const record = error as unknown as Record<string, unknown>;
  const clean = isDatabaseError(record)
    ? (text: string) => withoutQuotedValues(withoutParams(text))
    : withoutParams;
  const out: Record<string, unknown> = { type: error.name, message: clean(error.message) };
  if (error.stack) {
    // The stack's first line repeats the message.
    const frames = error.stack.indexOf('\n    at ');
    out.stack = `${error.name}: ${out.message}${frames < 0 ? '' : error.stack.slice(frames)}`;
  }
  for (const key of SAFE_ERROR_KEYS) {
    const value = record[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = value;
  }
  if (typeof record.query === 'string') out.query = record.query;
  if (error.cause !== undefined && depth < 5) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

/** Path segments that are secrets themselves: the webhook receiver's key. */
const SECRET_PATH_SEGMENTS = [/(\/webhook-trading\/hook\/)[^/?#]*/gi];

/**
 * A request URL as logged: no query string (it may carry personal data, such as the dev outbox's
 * `?to=` address) and no secret path segment (the 64-character webhook key).
 */
export function loggableUrl(url: string): string {
  const cut = url.search(/[?#]/);
  let path = cut < 0 ? url : url.slice(0, cut);
  for (const pattern of SECRET_PATH_SEGMENTS) path = path.replace(pattern, '$1[redacted]');
  return path;
}

interface LoggedRequest {
  readonly method?: string;
  readonly url?: string;
  readonly host?: string;
  readonly ip?: string;
  readonly headers?: Record<string, unknown>;
  readonly socket?: { readonly remotePort?: number };
}

/** Fastify's request serializer, with the URL made loggable. */
const serializeRequest = (request: LoggedRequest) => ({
  method: request.method,
  url: typeof request.url === 'string' ? loggableUrl(request.url) : undefined,
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});

export function loggerOptions(level: string, stream?: LogStream): LoggerOptions {
  if (level === 'silent') return false;
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: serializeRequest,
      err: (error: Error) => {
        const serialized = serializeError(error) as Record<string, unknown>;
        return {
          ...serialized,
          type: String(serialized.type),
          message: String(serialized.message),
          stack: String(serialized.stack ?? ''),
        };
      },
    },
    ...(stream ? { stream } : {}),
  };
}
