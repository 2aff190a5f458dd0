import { type ApiError, ERROR_CODES } from '@quantsquare/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, type FieldErrors } from './errors.js';

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

function addField(fields: FieldErrors, key: string, message: string): void {
  const list = fields[key] ?? [];
  if (!list.includes(message)) list.push(message);
  fields[key] = list;
}

/** Zod issues → `{field: [messages]}`; unknown keys of strict schemas are reported under their own name. */
export function fieldsFromIssues(issues: ValidationIssue[], context: string): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const base = issue.instancePath.split('/').filter(Boolean).join('.');
    const keys = issue.params.keys;
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      for (const key of keys) {
        addField(fields, base ? `${base}.${String(key)}` : String(key), 'Unknown field');
      }
      continue;
    }
    const message =
      issue.keyword === 'invalid_type' && issue.params.input === undefined
        ? 'This field is required'
        : (issue.message ?? 'Invalid value');
    addField(fields, base || context, message);
  }
  return fields;
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error;
}

/** The one place where errors become HTTP answers `{error, code, fields?}`. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const send = (status: number, body: ApiError) => reply.status(status).send(body);

    if (error instanceof DomainError) {
      const body: ApiError = { error: error.message, code: error.code, ...error.extras };
      if (error.fields) body.fields = error.fields;
      if (error.extras.retry_after !== undefined) {
        reply.header('retry-after', String(error.extras.retry_after));
      }
      return send(error.status, body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = error.validationContext ?? 'body';
      const fields = fieldsFromIssues(error.validation as ValidationIssue[], context);
      const first = Object.entries(fields)[0];
      const message = first ? `${first[0]}: ${first[1][0]}` : 'Validation failed';
      return send(400, { error: message, code: ERROR_CODES.validation, fields });
    }
    if (isFastifyError(error)) {
      switch (error.code) {
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
          return send(400, { error: 'Malformed JSON body', code: ERROR_CODES.invalidJson });
        case 'FST_ERR_CTP_BODY_TOO_LARGE':
          return send(413, {
            error: 'Request body is too large',
            code: ERROR_CODES.payloadTooLarge,
          });
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          return send(415, {
            error: 'Unsupported content type; send application/json',
            code: ERROR_CODES.unsupportedMediaType,
          });
      }
      const status = error.statusCode;
      if (status !== undefined && status >= 400 && status < 500) {
        return send(status, { error: error.message, code: 'bad_request' });
      }
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, { error: 'Internal server error', code: ERROR_CODES.internal });
  });
}
