import { type ApiError, ERROR_CODES, FIELD_ERROR_CODES } from '@quantsquare/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isForeignKeyViolation, isTransientConflict } from '../db/pg-errors.js';
import { DomainError, type FieldCodes, FieldErrorList, type FieldErrors } from './errors.js';

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

const origin = (params: Record<string, unknown>) => params.origin;

/** The stable code of one schema issue (contracts FIELD_ERROR_CODES). */
export function codeOfIssue(issue: ValidationIssue, isMissing: boolean): string {
  const { params } = issue;
  switch (issue.keyword) {
    case 'invalid_type':
      if (isMissing) return FIELD_ERROR_CODES.required;
      return params.expected === 'int'
        ? FIELD_ERROR_CODES.notInteger
        : FIELD_ERROR_CODES.invalidType;
    case 'too_small':
      if (origin(params) === 'string') {
        return params.minimum === 1 ? FIELD_ERROR_CODES.required : FIELD_ERROR_CODES.tooShort;
      }
      if (origin(params) === 'array' || origin(params) === 'set') return FIELD_ERROR_CODES.tooFew;
      return FIELD_ERROR_CODES.tooSmall;
    case 'too_big':
      if (origin(params) === 'string') return FIELD_ERROR_CODES.tooLong;
      if (origin(params) === 'array' || origin(params) === 'set') return FIELD_ERROR_CODES.tooMany;
      return FIELD_ERROR_CODES.tooBig;
    case 'invalid_format':
      return params.format === 'email'
        ? FIELD_ERROR_CODES.invalidEmail
        : FIELD_ERROR_CODES.invalidFormat;
    case 'not_multiple_of':
      return FIELD_ERROR_CODES.invalidStep;
    case 'invalid_value':
      return FIELD_ERROR_CODES.invalidChoice;
    case 'unrecognized_keys':
      return FIELD_ERROR_CODES.unknownField;
    case 'custom': {
      // A refinement names its code in its params ({ params: { code } }).
      const custom = params.params;
      if (custom && typeof custom === 'object' && 'code' in custom) {
        const code = (custom as { code: unknown }).code;
        if (typeof code === 'string') return code;
      }
      return FIELD_ERROR_CODES.invalid;
    }
    default:
      return FIELD_ERROR_CODES.invalid;
  }
}

/** The value at an issue's path in what was validated (zod issues do not carry the input). */
function valueAt(input: unknown, segments: readonly string[]): unknown {
  let value = input;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) {
      return undefined;
    }
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * Zod issues → `{field: [messages]}` and `{field: [codes]}`; unknown keys of strict schemas are
 * reported under their own name. `input` is what was validated (the body, the query…).
 */
export function fieldsFromIssues(
  issues: ValidationIssue[],
  context: string,
  input: unknown,
): FieldErrorList {
  const collected = new FieldErrorList();
  for (const issue of issues) {
    const segments = issue.instancePath.split('/').filter(Boolean);
    const base = segments.join('.');
    const keys = issue.params.keys;
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      for (const key of keys) {
        collected.add(
          base ? `${base}.${String(key)}` : String(key),
          'Unknown field',
          FIELD_ERROR_CODES.unknownField,
        );
      }
      continue;
    }
    const isMissing = issue.keyword === 'invalid_type' && valueAt(input, segments) === undefined;
    const message = isMissing ? 'This field is required' : (issue.message ?? 'Invalid value');
    collected.add(base || context, message, codeOfIssue(issue, isMissing));
  }
  return collected;
}

/** Codes for every field of `fields`: the given ones, `invalid` where none was given. */
function codesFor(fields: FieldErrors, given: FieldCodes | undefined): FieldCodes {
  const codes: FieldCodes = Object.create(null);
  for (const [key, messages] of Object.entries(fields)) {
    const known = given && Object.hasOwn(given, key) ? given[key] : undefined;
    codes[key] = messages.map((_, index) => known?.[index] ?? FIELD_ERROR_CODES.invalid);
  }
  return codes;
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error;
}

/** The one place where errors become HTTP answers `{error, code, fields?, field_codes?}`. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const send = (status: number, body: ApiError) => reply.status(status).send(body);

    if (error instanceof DomainError) {
      const body: ApiError = { error: error.message, code: error.code, ...error.extras };
      if (error.fields) {
        body.fields = error.fields;
        body.field_codes = codesFor(error.fields, error.fieldCodes);
      }
      if (error.extras.retry_after !== undefined) {
        reply.header('retry-after', String(error.extras.retry_after));
      }
      return send(error.status, body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = error.validationContext ?? 'body';
      const inputs: Record<string, unknown> = {
        body: request.body,
        querystring: request.query,
        params: request.params,
        headers: request.headers,
      };
      const { fields, codes } = fieldsFromIssues(
        error.validation as ValidationIssue[],
        context,
        inputs[context],
      );
      const first = Object.entries(fields)[0];
      const message = first ? `${first[0]}: ${first[1][0]}` : 'Validation failed';
      return send(400, {
        error: message,
        code: ERROR_CODES.validation,
        fields,
        field_codes: codes,
      });
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
    if (isTransientConflict(error)) {
      request.log.warn({ err: error }, 'transaction rolled back by a concurrent one');
      return send(409, {
        error: 'Another change was being saved at the same moment; nothing was changed. Try again.',
        code: ERROR_CODES.concurrentChange,
      });
    }
    if (isForeignKeyViolation(error)) {
      request.log.warn({ err: error }, 'a row the request refers to was deleted meanwhile');
      return send(409, {
        error: 'Something this request refers to was deleted meanwhile; nothing was changed.',
        code: ERROR_CODES.referenceGone,
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, { error: 'Internal server error', code: ERROR_CODES.internal });
  });
}
