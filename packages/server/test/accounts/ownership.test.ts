import { beforeAll, describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { scriptedFactory } from '../helpers/exchange-doubles.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  exchangeClientFactory: (deps) => scriptedFactory(deps),
});

let alice: string;
let bob: string;
let alicePaper: number;
let aliceLive: number;
let bobPaper: number;

beforeAll(async () => {
  alice = (await registerEmail(ctx.app, uniqueEmail('alice'))).access;
  bob = (await registerEmail(ctx.app, uniqueEmail('bob'))).access;
  const make = async (token: string, body: Record<string, unknown>) =>
    Number((await call(ctx.app, 'POST', '/api/auth/apis/', { token, body })).body.id);
  alicePaper = await make(alice, {
    name: 'A paper',
    exchange: 'binance',
    is_paper: true,
    default_leverage: 1,
  });
  aliceLive = await make(alice, {
    name: 'A live',
    exchange: 'binance',
    api_key: 'alice-key-123456',
    api_secret: 'alice-secret',
    default_leverage: 1,
  });
  bobPaper = await make(bob, {
    name: 'B paper',
    exchange: 'okx',
    is_paper: true,
    default_leverage: 1,
  });
});

type Endpoint = readonly ['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown];
const ENDPOINTS: [string, (id: number) => Endpoint][] = [
  ['GET /auth/apis/{id}/', (id) => ['GET', `/api/auth/apis/${id}/`, undefined]],
  ['PATCH /auth/apis/{id}/', (id) => ['PATCH', `/api/auth/apis/${id}/`, { name: 'stolen' }]],
  [
    'POST /auth/apis/{id}/test_connection/',
    (id) => ['POST', `/api/auth/apis/${id}/test_connection/`, undefined],
  ],
  ['POST /auth/apis/{id}/validate/', (id) => ['POST', `/api/auth/apis/${id}/validate/`, undefined]],
  ['GET /auth/apis/{id}/balance/', (id) => ['GET', `/api/auth/apis/${id}/balance/`, undefined]],
  [
    'POST /trading/accounts/{id}/refresh/',
    (id) => ['POST', `/api/trading/accounts/${id}/refresh/`, undefined],
  ],
  ['DELETE /auth/apis/{id}/', (id) => ['DELETE', `/api/auth/apis/${id}/`, undefined]],
];

describe("another user's account", () => {
  it.each(ENDPOINTS)("answers 404 to B's %s on both of A's accounts", async (_label, endpoint) => {
    for (const id of [alicePaper, aliceLive]) {
      const [method, url, body] = endpoint(id);
      const res = await call(ctx.app, method, url, { token: bob, body });
      expect(res.status).toBe(404);
    }
  });

  it("leaves A's accounts untouched after B's attempts", async () => {
    const res = await call(ctx.app, 'GET', `/api/auth/apis/${alicePaper}/`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'A paper', last_error: null });
    expect(
      (await call(ctx.app, 'GET', `/api/auth/apis/${aliceLive}/`, { token: alice })).status,
    ).toBe(200);
  });

  it("never lists B's accounts to A, nor A's to B", async () => {
    // Each user's own experience account is theirs too, so only user-made accounts are compared.
    const own = <T extends { id: number; is_experience: boolean }>(rows: T[]) =>
      rows.filter((r) => !r.is_experience).map((r) => r.id);
    type Row = { id: number; is_experience: boolean };
    const aList = await call<{ results: Row[] }>(ctx.app, 'GET', '/api/auth/apis/', {
      token: alice,
    });
    expect(own(aList.body.results).sort()).toEqual([alicePaper, aliceLive].sort());
    const bList = await call<{ results: Row[] }>(ctx.app, 'GET', '/api/auth/apis/', {
      token: bob,
    });
    expect(own(bList.body.results)).toEqual([bobPaper]);
    expect(aList.body.results.filter((r) => r.is_experience)).toHaveLength(1);
    const aOverview = await call<{ accounts: Row[] }>(ctx.app, 'GET', '/api/trading/accounts/', {
      token: alice,
    });
    expect(own(aOverview.body.accounts).sort()).toEqual([alicePaper, aliceLive].sort());
  });
});
