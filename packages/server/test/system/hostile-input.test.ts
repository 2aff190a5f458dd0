// Keys that name an object's built-ins and NUL characters are 400s on every route, and no log
// line carries a secret, not even encrypted (issue 8, item 3).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { RecordingBotControl } from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const lines: string[] = [];
const logStream = { write: (line: string) => lines.push(line) };
const SECRET = 'sk-live-secret-7f3a9c1e5b';

const ctx = useTestApp({
  logStream,
  botControl: () => new RecordingBotControl(),
  extend: (app) => {
    // A query that fails inside the database with a secret among its parameters.
    app.get('/api/test/failing-query/', async () => {
      await ctx.database.db.execute(sql`select ${SECRET}::integer as broken`);
      return { ok: true };
    });
    // Answers the body it was given, so that a body the parser accepts is seen to arrive whole.
    app.post('/api/test/echo/', async (request) => ({ body: request.body }));
  },
});

interface ErrorBody {
  code: string;
  fields?: Record<string, string[]>;
  field_codes?: Record<string, string[]>;
}

/** Every operation of the API that takes a JSON body, from its own OpenAPI document. */
function jsonOperations(): { method: 'POST' | 'PUT' | 'PATCH'; url: string }[] {
  const spec = ctx.app.swagger() as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  const operations: { method: 'POST' | 'PUT' | 'PATCH'; url: string }[] = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!operation.requestBody) continue;
      const upper = method.toUpperCase();
      if (upper !== 'POST' && upper !== 'PUT' && upper !== 'PATCH') continue;
      operations.push({ method: upper, url: path.replace(/\{[^}]+\}/g, '1') });
    }
  }
  return operations;
}

const rawJson = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: string, token: string) =>
  ctx.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload,
  });

describe('keys naming built-ins', () => {
  it('finds the JSON routes to try', () => {
    expect(jsonOperations().length).toBeGreaterThanOrEqual(15);
  });

  it.each([
    ['__proto__', '{"__proto__": {"isStaff": true}}', 'forbidden_key'],
    ['constructor', '{"constructor": {"prototype": {"x": 1}}}', 'forbidden_key'],
    ['toString', '{"toString": "x"}', 'unknown_field'],
    ['hasOwnProperty', '{"hasOwnProperty": 1}', 'unknown_field'],
  ])('answers 400 naming the key %s on every JSON route', async (key, payload, fieldCode) => {
    // A staff user, so that staff-only routes read the body too instead of answering 403.
    const email = uniqueEmail('proto');
    const token = (await registerEmail(ctx.app, email)).access;
    await ctx.database.db.execute(sql`update users set is_staff = true where email = ${email}`);
    for (const { method, url } of jsonOperations()) {
      const res = await rawJson(method, url, payload, token);
      const body = res.json() as ErrorBody;
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(body.code).toBe('validation_failed');
      // A forbidden key is reported on the object holding it (a field named `__proto__`
      // could not even be answered); an unknown one under its own name.
      if (fieldCode === 'forbidden_key') {
        expect(body.field_codes?.body).toEqual(['forbidden_key']);
        expect(body.fields?.body).toEqual([`The key "${key}" is not allowed`]);
      } else {
        expect(Object.keys(body.field_codes ?? {}).length).toBeGreaterThan(0);
      }
    }
  });

  it('reports an unknown key toString as an unknown field, with its code', async () => {
    const token = (await registerEmail(ctx.app, uniqueEmail('tostring'))).access;
    const res = await rawJson(
      'PUT',
      '/api/auth/profile/',
      '{"nickname": "n", "toString": 1, "hasOwnProperty": 2, "constructor": 3}',
      token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      fields: { body: ['The key "constructor" is not allowed'] },
      field_codes: { body: ['forbidden_key'] },
    });
    const unknown = await rawJson(
      'PUT',
      '/api/auth/profile/',
      '{"nickname": "n", "toString": 1, "hasOwnProperty": 2}',
      token,
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      fields: { toString: ['Unknown field'], hasOwnProperty: ['Unknown field'] },
      field_codes: { toString: ['unknown_field'], hasOwnProperty: ['unknown_field'] },
    });
  });

  it('answers 400 for built-in names in a query string', async () => {
    for (const query of ['__proto__=1', 'constructor=1', 'toString=1', 'hasOwnProperty=1']) {
      const res = await call(ctx.app, 'GET', `/api/trading/symbols/?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
  });

  it('finds a key nested in a record field (backtest parameters)', async () => {
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/backtest/', {
      body: { symbol: 'BTC/USDT:USDT', parameters: { toString: 5, hasOwnProperty: 3 } },
    });
    expect(res.status).toBe(400);
    const nested = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/backtest/', {
      body: { symbol: 'BTC/USDT:USDT', settings: JSON.parse('{"__proto__": {"leverage": 5}}') },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.field_codes).toEqual({ settings: ['forbidden_key'] });
  });
});

describe('deeply nested JSON', () => {
  const nested = (depth: number, inner: string) =>
    '{"a":'.repeat(depth - 1) + inner + '}'.repeat(depth - 1);

  it('answers 400 too_deep on every JSON route, with one request line and no error logged', async () => {
    const token = (await registerEmail(ctx.app, uniqueEmail('deep'))).access;
    // 5,000 levels around a forbidden key: the key check used to recurse out of stack (a 500).
    const payload = nested(5_000, '{"constructor":1}');
    for (const { method, url } of jsonOperations()) {
      lines.length = 0;
      const res = await rawJson(method, url, payload, token);
      const body = res.json() as ErrorBody;
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(body.code).toBe('validation_failed');
      expect(body.field_codes).toEqual({ body: ['too_deep'] });
      const levels = lines.map((line) => (JSON.parse(line) as { level: number }).level);
      expect(levels.filter((level) => level >= 40)).toEqual([]);
      expect(lines.join('')).not.toContain('Maximum call stack');
    }
  });

  it('accepts a body of 64 levels and refuses one of 65', async () => {
    const deepest = nested(64, '{"x":"ok"}');
    const accepted = await rawJson('POST', '/api/test/echo/', deepest, '');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ body: JSON.parse(deepest) });
    // Brackets inside strings are text, not levels.
    const quoted = nested(64, `{"x":${JSON.stringify('[{'.repeat(100))}}`);
    expect((await rawJson('POST', '/api/test/echo/', quoted, '')).statusCode).toBe(200);
    const tooDeep = await rawJson('POST', '/api/test/echo/', nested(64, '{"x":[1]}'), '');
    expect(tooDeep.statusCode).toBe(400);
    expect((tooDeep.json() as ErrorBody).field_codes).toEqual({ body: ['too_deep'] });
  });
});

describe('NUL characters', () => {
  it.each([
    ['a nickname', 'PUT', '/api/auth/profile/', { nickname: 'ni\u0000ck' }, 'nickname'],
    [
      'an invitation code',
      'POST',
      '/api/auth/register/',
      {
        email: 'nul-invite@example.com',
        password: 'long enough pass',
        password2: 'long enough pass',
        invitation_code: 'AB\u0000CD',
      },
      'invitation_code',
    ],
    [
      'an account name',
      'POST',
      '/api/auth/apis/',
      {
        name: 'Main\u0000',
        exchange: 'binance',
        api_key: 'key-1234567890',
        api_secret: SECRET,
        default_leverage: 5,
      },
      'name',
    ],
  ] as const)(
    'answers 400 for a NUL in %s, naming the field',
    async (_label, method, url, body, field) => {
      const token = (await registerEmail(ctx.app, uniqueEmail('nul'))).access;
      const res = await call<ErrorBody>(ctx.app, method, url, { token, body });
      expect(res.status).toBe(400);
      expect(res.body.field_codes?.[field]).toEqual(['invalid_character']);
    },
  );

  it('answers 400 for a NUL in the outbox filter and in a path', async () => {
    const query = await call<ErrorBody>(ctx.app, 'GET', '/api/dev/outbox/?to=a%00b');
    expect(query.status).toBe(400);
    expect(query.body.field_codes).toEqual({ to: ['invalid_character'] });
    const token = (await registerEmail(ctx.app, uniqueEmail('nulpath'))).access;
    const path = await call<ErrorBody>(ctx.app, 'GET', '/api/auth/apis/1%00/', { token });
    expect(path.status).toBe(400);
  });
});

describe('log lines', () => {
  it('never carry a secret, not even encrypted, when a request with secrets is refused', async () => {
    const token = (await registerEmail(ctx.app, uniqueEmail('logs'))).access;
    lines.length = 0;
    const res = await call(ctx.app, 'POST', '/api/auth/apis/', {
      token,
      body: {
        name: 'Main\u0000',
        exchange: 'binance',
        api_key: 'key-1234567890',
        api_secret: SECRET,
        default_leverage: 5,
      },
    });
    expect(res.status).toBe(400);
    const log = lines.join('');
    expect(log).toContain('"statusCode":400');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain('params:');
    expect(log).not.toMatch(/[0-9a-f]{24}:[0-9a-f]{32}:/); // the secret box's stored form
  });

  it('log a failed query without its parameters', async () => {
    lines.length = 0;
    const res = await call(ctx.app, 'GET', '/api/test/failing-query/');
    expect(res.status).toBe(500);
    const log = lines.join('');
    expect(log).toContain('unhandled error');
    expect(log).toContain('Failed query: select $1::integer as broken');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain('params:');
  });
});
