// Ids read from a path or a query are bounded to the PostgreSQL integer range at the schema: an
// id beyond it is a 400 with a field code, never a query the database refuses with a 500; and a
// malformed multipart body is a 400 too (issue: attack run, item 8).
import { describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { botBody, createPaperAccount, RecordingBotControl } from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  botControl: () => new RecordingBotControl(),
});

interface ErrorBody {
  code: string;
  field_codes?: Record<string, string[]>;
}

const QUERY_ROUTES = [
  ['/api/webhook-trading/signals/', 'config'],
  ['/api/webhook-trading/executions/', 'config'],
  ['/api/webhook-trading/logs/', 'config'],
  ['/api/webhook-trading/stats/', 'config'],
  ['/api/trading/logs/', 'bot'],
] as const;

describe('ids in query strings', () => {
  it.each(QUERY_ROUTES)(
    'GET %s?%s= answers 400 with a field code beyond the integer range',
    async (url, param) => {
      const token = (await registerEmail(ctx.app, uniqueEmail('idq'))).access;
      const cases: [string, string][] = [
        ['2147483648', 'too_big'],
        ['99999999999999999999', 'too_big'],
        ['1e309', 'invalid_type'],
        ['-1', 'too_small'],
      ];
      for (const [value, fieldCode] of cases) {
        const res = await call<ErrorBody>(ctx.app, 'GET', `${url}?${param}=${value}`, { token });
        expect(res.status, `${param}=${value}`).toBe(400);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.field_codes?.[param], `${param}=${value}`).toEqual([fieldCode]);
      }
      const largest = await call(ctx.app, 'GET', `${url}?${param}=2147483647`, { token });
      expect(largest.status).toBe(200);
    },
  );
});

describe('ids in JSON bodies', () => {
  it('answer 400 with too_big beyond the integer range on bots, webhooks and copies', async () => {
    const token = (await registerEmail(ctx.app, uniqueEmail('idb'))).access;
    const account = await createPaperAccount(ctx.app, token);
    const over = 2_147_483_648;
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/api/trading/bots/', botBody(over), 'exchange_api'],
      ['POST', '/api/trading/bots/', botBody(account, { strategy: over }), 'strategy'],
      [
        'POST',
        '/api/webhook-trading/configs/',
        { name: 'TV', exchange_api: over, symbol: 'BTCUSDT.P' },
        'exchange_api',
      ],
      [
        'POST',
        '/api/webhook-trading/configs/batch-action/',
        { action: 'enable', ids: [over] },
        'ids.0',
      ],
      [
        'POST',
        '/api/strategy-square/copy-trading/create/',
        { leader_account_id: over, follower_account_id: account },
        'leader_account_id',
      ],
      [
        'POST',
        '/api/strategy-square/copy-trading/create/',
        { leader_account_id: account, follower_account_id: over },
        'follower_account_id',
      ],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await call<ErrorBody>(ctx.app, method as 'POST', url, { token, body });
      expect(res.status, `${url} ${field}`).toBe(400);
      expect(res.body.field_codes?.[field], `${url} ${field}`).toEqual(['too_big']);
    }
  });
});

describe('a malformed multipart body', () => {
  const url = '/api/strategy-square/profile/upload-avatar/';
  const boundary = '----quantsquare-broken';
  const bodies: [string, string, string | Buffer][] = [
    [
      'cut off',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`,
    ],
    ['without a boundary', 'multipart/form-data', `--x\r\n\r\n--x--\r\n`],
    [
      'with a broken part header',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition\r\n\r\nabc\r\n--${boundary}--\r\n`,
    ],
  ];
  it.each(bodies)(
    'on upload-avatar (%s) answers 400 with a field code',
    async (_label, type, payload) => {
      const token = (await registerEmail(ctx.app, uniqueEmail('mp'))).access;
      const res = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        payload,
      });
      expect(res.statusCode).toBe(400);
      const body = res.json() as ErrorBody;
      expect(body.code).toBe('validation_failed');
      expect(body.field_codes?.avatar?.length).toBe(1);
    },
  );
});
