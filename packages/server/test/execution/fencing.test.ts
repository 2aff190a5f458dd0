// Fencing: a worker that froze and lost its owner's lease can no longer send. The claim carries
// the lease's epoch (checked against worker_leases in the claim's statement), and the request
// carries the venue's own expiry, so even a request already on the wire when the worker froze
// is refused by the venue once its window has passed (Binance: recvWindow from the request's
// timestamp; OKX: the expTime header). The same table on both venues as they answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { createLeases } from '../../src/common/leases.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import type { ExecutionCore } from '../../src/execution/index.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { coreOnVenue, insertLiveAccount, insertUser } from './core-on-venue.js';

const ETH = 'ETH/USDT:USDT';
const clock = new ManualClock(Date.UTC(2026, 0, 21, 8, 0, 0));
let database: DatabaseHandle;
let userId: number;
let keys = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  userId = await insertUser(database.db, clock, 'fencing');
});
afterAll(async () => {
  await database.close();
});

/**
 * `lateIntent`: the intent of a request the venue refused for arriving past its expiry. Binance
 * says so with its recvWindow code (-1021): `expired`. OKX's code for a past expTime is not
 * documented where we could read it (fake-okx-routes.ts): a plain refusal, `rejected`. Either
 * way nothing exists at the venue.
 */
const VENUES = [
  {
    exchange: 'binance',
    orderPath: '/fapi/v1/order',
    keyHeader: 'x-mbx-apikey',
    owners: 9000,
    lateIntent: 'expired',
  },
  {
    exchange: 'okx',
    orderPath: '/api/v5/trade/order',
    keyHeader: 'ok-access-key',
    owners: 9100,
    lateIntent: 'rejected',
  },
] as const;

describe.each(VENUES)('a worker on $exchange that lost its lease', (venue) => {
  const ORDER = venue.orderPath;
  let fake: FakePrivateExchange;
  beforeAll(async () => {
    fake = await startFakeExchange({
      exchange: venue.exchange,
      venueFaithful: true,
      rateLimitEveryNthOrder: 0,
    });
  });
  afterAll(async () => {
    await fake.close();
  });

  const coreOnFake = (sendDeadlineMs?: number): ExecutionCore =>
    coreOnVenue({
      db: database.db,
      clock,
      venueUrl: fake.url,
      timeoutMs: 20_000,
      ...(sendDeadlineMs === undefined ? {} : { sendDeadlineMs }),
    });
  const liveAccount = () =>
    insertLiveAccount(database.db, clock, {
      userId,
      exchange: venue.exchange,
      apiKey: `fence-key-${++keys}`,
    });
  const postsOf = (apiKey: string) =>
    fake.callsTo(ORDER, 'POST').filter((c) => c.headers[venue.keyHeader] === apiKey);

  it('cannot claim an order: refused as fenced, and the new holder sends it once', async () => {
    const account = await liveAccount();
    const owner = { kind: 'copy' as const, id: venue.owners + 1 };
    const resource = `copy:${owner.id}`;
    // A holds the lease; it freezes past its time to live and B takes the lease over.
    const a = createLeases({ db: database.db, holderId: 'worker-a', ttlMs: 200 });
    const b = createLeases({ db: database.db, holderId: 'worker-b' });
    expect(await a.acquire([resource])).toEqual([resource]);
    const fenceOfA = a.fenceOf(resource);
    expect(fenceOfA).toMatchObject({ holder: 'worker-a', epoch: 1 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.acquire([resource])).toEqual([resource]);
    expect(b.fenceOf(resource)).toMatchObject({ holder: 'worker-b', epoch: 2 });

    const core = coreOnFake();
    const intent = {
      accountId: account.id,
      symbol: ETH,
      owner,
      key: `change-1|${owner.id}|o`,
      size: { kind: 'target' as const, amount: 0.1 },
      action: 'copy_open_long',
    };
    // A wakes and submits with the lease it held: nothing is claimed, nothing sent.
    await expect(core.submit({ ...intent, fence: fenceOfA })).rejects.toMatchObject({
      kind: 'fenced',
    });
    expect(postsOf(account.apiKey)).toHaveLength(0);
    expect((await core.intentsOf(owner)).map((i) => i.status)).toEqual(['created']);
    // B, the current holder, sends the same decision: one order.
    const result = await core.submit({ ...intent, fence: b.fenceOf(resource) });
    expect(result.status).toBe('filled');
    expect(postsOf(account.apiKey)).toHaveLength(1);
    await core.close();
  });

  it('cannot get a request that was on its way accepted once its venue expiry passed', async () => {
    const account = await liveAccount();
    const owner = { kind: 'copy' as const, id: venue.owners + 2 };
    // The request is written, then stalls before the venue reads it (a frozen worker, a slow
    // network): the venue judges it by the claim's time and window it carries.
    const held = fake.hold('POST', ORDER);
    const core = coreOnFake(500);
    const submitted = core
      .submit({
        accountId: account.id,
        symbol: ETH,
        owner,
        key: `change-1|${owner.id}|o`,
        size: { kind: 'target', amount: 0.1 },
        action: 'copy_open_long',
      })
      .catch((error: unknown) => error);
    await expect.poll(() => held.waiting(), { timeout: 5_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    held.release();
    expect(await submitted).toMatchObject({ kind: 'rejected' });
    expect(fake.state.orders.filter((o) => o.apiKey === account.apiKey)).toHaveLength(0);
    expect((await core.intentsOf(owner)).map((i) => i.status)).toEqual([venue.lateIntent]);
    // The venue saw the request and refused it: it did arrive, late.
    expect(postsOf(account.apiKey)).toHaveLength(1);
    await core.close();
  });
});
