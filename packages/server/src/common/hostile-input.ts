import { ERROR_CODES, FIELD_ERROR_CODES } from '@quantsquare/contracts';
import type { FastifyInstance } from 'fastify';
import { BadRequest, FieldErrorList, ValidationFailed } from './errors.js';

// Input no route can store or trust, refused for every route before any schema sees it: a NUL
// character (PostgreSQL text cannot hold one, and it cuts strings short in C libraries), the
// JSON keys that reach an object's prototype when copied (`__proto__`, `constructor`), and
// nesting deeper than any payload of the API (every recursive reader after the parser — this
// check, the schemas, the serialiser — would otherwise run out of stack on it).

export const NUL_MESSAGE = 'Text must not contain NUL characters';
const forbiddenKeyMessage = (key: string) => `The key "${key}" is not allowed`;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

/** Objects and arrays inside one another that a JSON body may hold (no payload needs 10). */
export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP_MESSAGE = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

const hasNul = (text: string) => text.includes('\u0000');

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the JSON text nests deeper than MAX_JSON_DEPTH, read from the text in one pass
 * without recursion (brackets inside strings do not count). Malformed text is the parser's to
 * refuse; this only has to stop the deep.
 */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Parses a JSON body; nesting deeper than MAX_JSON_DEPTH, a NUL in any string or key, or a
 * forbidden key at any depth answers 400. The common body pays one character scan for its
 * depth and one substring scan; only a suspect one is walked.
 */
export function parseJsonBody(text: string): unknown {
  if (nestsTooDeep(text)) {
    throw ValidationFailed.field('body', TOO_DEEP_MESSAGE, FIELD_ERROR_CODES.tooDeep);
  }
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
  inspect(parsed, errors);
  if (!errors.isEmpty) throw errors.failure();
  return parsed;
}

/** Walks every value with a stack of its own (no recursion), naming each problem's field. */
function inspect(root: unknown, errors: FieldErrorList): void {
  const pending: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    const field = path || 'body';
    if (typeof value === 'string') {
      if (hasNul(value)) errors.add(field, NUL_MESSAGE, FIELD_ERROR_CODES.invalidCharacter);
      continue;
    }
    if (Array.isArray(value)) {
      // Pushed last first, so that siblings are reported in their order.
      for (let index = value.length - 1; index >= 0; index--) {
        pending.push({ value: value[index], path: path ? `${path}.${index}` : String(index) });
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const children: { value: unknown; path: string }[] = [];
    for (const key of Object.keys(value)) {
      // Reported on the object holding it: a field named `__proto__` cannot even be answered.
      if (FORBIDDEN_KEYS.has(key)) {
        errors.add(field, forbiddenKeyMessage(key), FIELD_ERROR_CODES.forbiddenKey);
        continue;
      }
      if (hasNul(key)) {
        errors.add(field, NUL_MESSAGE, FIELD_ERROR_CODES.invalidCharacter);
        continue;
      }
      children.push({
        value: (value as Record<string, unknown>)[key],
        path: path ? `${path}.${key}` : key,
      });
    }
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]!);
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
