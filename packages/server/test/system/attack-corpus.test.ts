// A compact attack corpus: every operation of the app's own OpenAPI document gets a small fixed
// set of hostile variants — ids beyond the integer range in paths and queries, NUL characters,
// `__proto__`/`constructor` keys, deeply nested JSON, Infinity, wrong content types, broken
// multipart — sent by a signed-in (staff, VIP) user. No answer may be a 5xx. The cases are
// generated deterministically from the document and run with modest concurrency on one app.
import { describe, expect, it } from 'vitest';
import { staffSession } from '../help/help-flows.js';
import { grantVip, RecordingBotControl } from '../helpers/bot-flows.js';
import { useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated', NODE_ENV: 'development' },
  botControl: () => new RecordingBotControl(),
});

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly schema?: { enum?: unknown[] };
}
interface JsonSchema {
  readonly type?: string | string[];
  readonly enum?: unknown[];
  readonly properties?: Record<string, JsonSchema>;
  readonly anyOf?: JsonSchema[];
  readonly minimum?: number;
}
interface Operation {
  readonly parameters?: Parameter[];
  readonly requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface AttackCase {
  readonly label: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string | Buffer;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const BOUNDARY = '----quantsquare-attack';

/** Values for an id (or any segment) of a path: each one alone, the others valid. */
const HOSTILE_SEGMENTS = [
  '2147483648',
  '99999999999999999999',
  '1e309',
  '-1',
  '0',
  '1.5',
  '%00',
  '__proto__',
  'constructor',
];
/** Values for one query parameter at a time. */
const HOSTILE_QUERY_VALUES = ['2147483648', '1e309', '-1', '%00', '', 'x'.repeat(5000)];
/** Whole query strings that attack the parser rather than one parameter. */
const HOSTILE_QUERIES = ['__proto__[polluted]=1', 'constructor[prototype][x]=1', '%00=%00'];

const nested = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;

/** Body variants built from the operation's JSON properties (all of them at once). */
function hostileBodies(properties: string[]): [string, string, string | Buffer][] {
  const json = 'application/json';
  const all = (raw: string) =>
    `{${properties.map((p) => `${JSON.stringify(p)}:${raw}`).join(',')}}`;
  const bodies: [string, string, string | Buffer][] = [
    ['nested 5000 deep', json, nested(5000)],
    ['nested 60 deep', json, nested(60)],
    ['__proto__ key', json, '{"__proto__":{"polluted":true}}'],
    ['constructor key', json, '{"constructor":{"prototype":{"polluted":true}}}'],
    ['invalid JSON', json, '{"a":'],
    ['array', json, '[]'],
    ['null', json, 'null'],
    ['string', json, '"x"'],
    ['empty', json, ''],
    ['text/plain', 'text/plain', '{"a":1}'],
    ['form', 'application/x-www-form-urlencoded', 'a=1&__proto__[x]=1'],
    ['xml', 'application/xml', '<a>1</a>'],
    [
      'multipart cut off',
      `multipart/form-data; boundary=${BOUNDARY}`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n\x89PNG',
    ],
    ['multipart without boundary', 'multipart/form-data', '--x\r\n\r\n--x--\r\n'],
    [
      'multipart broken header',
      `multipart/form-data; boundary=${BOUNDARY}`,
      `--${BOUNDARY}\r\nContent-Disposition\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`,
    ],
    [
      'multipart image field cut off',
      `multipart/form-data; boundary=${BOUNDARY}`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nGIF8`,
    ],
  ];
  if (properties.length > 0) {
    bodies.push(
      ['fields 2147483648', json, all('2147483648')],
      ['fields 99999999999999999999', json, all('99999999999999999999')],
      ['fields 1e309', json, all('1e309')],
      ['fields "1e309"', json, all('"1e309"')],
      ['fields -1', json, all('-1')],
      ['fields NUL', json, all('"a\\u0000b"')],
      ['fields nested objects', json, all('{"__proto__":{"x":1},"constructor":{"a":1}}')],
      ['fields arrays', json, all('[[[[[]]]]]')],
      ['fields long text', json, all(JSON.stringify('x'.repeat(100_000)))],
    );
  }
  return bodies;
}

/** A plausible value of a schema (first choice, small numbers), so a body can pass most checks. */
function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.anyOf && schema.anyOf.length > 0) return plausible(schema.anyOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      return 'x';
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]),
      );
    default:
      return null;
  }
}

const isInteger = (schema: JsonSchema | undefined): boolean =>
  schema?.type === 'integer' ||
  (Array.isArray(schema?.type) && schema.type.includes('integer')) ||
  (schema?.anyOf ?? []).some(isInteger);

/** A plausible body with one integer field at a time beyond the integer range. */
function overflowBodies(schema: JsonSchema | undefined): [string, string][] {
  const properties = schema?.properties ?? {};
  const base = plausible(schema) as Record<string, unknown>;
  return Object.keys(properties)
    .sort()
    .filter((name) => isInteger(properties[name]))
    .flatMap((name): [string, string][] =>
      ['2147483648', '-2147483649', '1e309'].map((raw) => {
        const text = JSON.stringify({ ...base, [name]: 0 }).replace(
          `"${name}":0`,
          `"${name}":${raw}`,
        );
        return [`${name}=${raw} in a plausible body`, text];
      }),
    );
}

/** The value a path parameter takes when another part of the request is under attack. */
function validSegment(parameter: Parameter): string {
  const choices = parameter.schema?.enum;
  if (choices && choices.length > 0) return String(choices[0]);
  if (parameter.name === 'key') return 'a'.repeat(64);
  return '1';
}

function casesFor(path: string, method: string, operation: Operation, token: string) {
  const auth = { authorization: `Bearer ${token}` };
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((p) => p.in === 'path');
  const queryParameters = parameters.filter((p) => p.in === 'query');
  const urlWith = (segments: Record<string, string>, query = '') =>
    `${path.replace(/\{([^}]+)\}/g, (_all, name: string) => segments[name] ?? '1')}${query ? `?${query}` : ''}`;
  const valid = Object.fromEntries(pathParameters.map((p) => [p.name, validSegment(p)]));
  const hasBody = METHODS_WITH_BODY.has(method);
  const minimal = hasBody
    ? { headers: { ...auth, 'content-type': 'application/json' }, payload: '{}' }
    : { headers: auth };
  const cases: AttackCase[] = [];

  for (const parameter of pathParameters) {
    for (const value of HOSTILE_SEGMENTS) {
      cases.push({
        label: `path ${parameter.name}=${value}`,
        method,
        url: urlWith({ ...valid, [parameter.name]: value }),
        ...minimal,
      });
    }
  }
  for (const parameter of queryParameters) {
    for (const value of HOSTILE_QUERY_VALUES) {
      cases.push({
        label: `query ${parameter.name}=${value.slice(0, 20)}`,
        method,
        url: urlWith(valid, `${parameter.name}=${value}`),
        ...minimal,
      });
    }
    cases.push({
      label: `query ${parameter.name} twice`,
      method,
      url: urlWith(valid, `${parameter.name}=1&${parameter.name}=2`),
      ...minimal,
    });
  }
  for (const query of HOSTILE_QUERIES) {
    cases.push({ label: `query ${query}`, method, url: urlWith(valid, query), ...minimal });
  }
  if (hasBody) {
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    const properties = Object.keys(schema?.properties ?? {}).sort();
    for (const [label, contentType, payload] of hostileBodies(properties)) {
      cases.push({
        label: `body ${label}`,
        method,
        url: urlWith(valid),
        headers: { ...auth, 'content-type': contentType },
        payload,
      });
    }
    for (const [label, payload] of overflowBodies(schema)) {
      cases.push({
        label: `body ${label}`,
        method,
        url: urlWith(valid),
        headers: { ...auth, 'content-type': 'application/json' },
        payload,
      });
    }
  }
  return cases;
}

/** Runs `work` over `items` with at most `limit` at a time, in order of start. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const runners = Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item !== undefined) await work(item);
    }
  });
  await Promise.all(runners);
}

describe('the attack corpus', () => {
  it('gets no 5xx from any operation of the OpenAPI document', async () => {
    const session = await staffSession(ctx);
    await grantVip(ctx.database, ctx.clock, Number(session.user.id));
    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = (docs.json() as { paths: Record<string, Record<string, Operation>> }).paths;

    const all: AttackCase[] = [];
    for (const path of Object.keys(paths).sort()) {
      const item = paths[path] ?? {};
      for (const method of Object.keys(item).sort()) {
        const operation = item[method];
        if (operation) all.push(...casesFor(path, method.toUpperCase(), operation, session.access));
      }
    }
    // Deletions last, so what they remove was attacked first.
    const ordered = [
      ...all.filter((c) => c.method !== 'DELETE'),
      ...all.filter((c) => c.method === 'DELETE'),
    ];
    expect(Object.keys(paths).length).toBeGreaterThan(50);
    expect(ordered.length).toBeGreaterThan(1000);

    const failures: string[] = [];
    await inPool(ordered, 6, async (attack) => {
      const res = await ctx.app.inject({
        method: attack.method as 'GET',
        url: attack.url,
        headers: attack.headers,
        ...(attack.payload === undefined ? {} : { payload: attack.payload }),
      });
      if (res.statusCode >= 500) {
        failures.push(
          `${res.statusCode} ${attack.method} ${attack.url.slice(0, 120)} [${attack.label}] ${res.body.slice(0, 200)}`,
        );
      }
    });
    expect(failures).toEqual([]);
  }, 120_000);
});
