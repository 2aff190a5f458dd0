import { ERROR_CODES, FIELD_ERROR_CODES } from '@quantsquare/contracts';
import type { FastifyInstance } from 'fastify';
import { BadRequest, FieldErrorList, type ValidationFailed } from './errors.js';

// Input no route can store or trust, refused for every route before any schema sees it: a NUL
// character (PostgreSQL text cannot hold one, and it cuts strings short in C libraries) and the
// JSON keys that reach an object's prototype when copied (`__proto__`, `constructor`).

export const NUL_MESSAGE = 'Text must not contain NUL characters';
const forbiddenKeyMessage = (key: string) => `The key "${key}" is not allowed`;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

const hasNul = (text: string) => text.includes('\u0000');

/**
 * Parses a JSON body; a NUL in any string or key, or a forbidden key at any depth, answers 400
 * naming the key. The common body pays one substring scan; only a suspect one is walked.
 */
export function parseJsonBody(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequest(ERROR_CODES.invalidJson, 'Malformed JSON body');
  }
  const suspect =
    /\\u0000/i.test(text) || text.includes('__proto__') || text.includes('constructor');
  if (!suspect) return parsed;
  const errors = new FieldErrorList();
  inspect(parsed, '', errors);
  if (!errors.isEmpty) throw errors.failure();
  return parsed;
}

function inspect(value: unknown, path: string, errors: FieldErrorList): void {
  const field = path || 'body';
  if (typeof value === 'string') {
    if (hasNul(value)) errors.add(field, NUL_MESSAGE, FIELD_ERROR_CODES.invalidCharacter);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      inspect(item, path ? `${path}.${index}` : String(index), errors);
    });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const keyPath = path ? `${path}.${key}` : key;
    // Reported on the object holding it: a field named `__proto__` cannot even be answered.
    if (FORBIDDEN_KEYS.has(key)) {
      errors.add(field, forbiddenKeyMessage(key), FIELD_ERROR_CODES.forbiddenKey);
      continue;
    }
    if (hasNul(key)) {
      errors.add(field, NUL_MESSAGE, FIELD_ERROR_CODES.invalidCharacter);
      continue;
    }
    inspect((value as Record<string, unknown>)[key], keyPath, errors);
  }
}

/** A NUL in the path or the query string: the query parameter it is in, else `path`. */
export function nulInUrl(url: string): ValidationFailed | undefined {
  if (!/%00/i.test(url) && !hasNul(url)) return undefined;
  const errors = new FieldErrorList();
  const queryStart = url.indexOf('?');
  if (queryStart >= 0) {
    try {
      for (const [key, value] of new URLSearchParams(url.slice(queryStart + 1))) {
        if (hasNul(key) || hasNul(value)) {
          errors.add(hasNul(key) ? 'query' : key, NUL_MESSAGE, FIELD_ERROR_CODES.invalidCharacter);
        }
      }
    } catch {
      // an unreadable query string: reported as the URL's below
    }
  }
  if (errors.isEmpty) errors.add('path', NUL_MESSAGE, FIELD_ERROR_CODES.invalidCharacter);
  return errors.failure();
}

/** Registers the JSON parser and the URL check on the app (every route, every method). */
export function refuseHostileInput(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  // An empty body is "no body" (POSTs without payload); bad JSON is our 400.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addHook('onRequest', async (request) => {
    const refused = nulInUrl(request.url);
    if (refused) throw refused;
  });
}
