// The execution core on the ccxt fake (real ccxt client, one-way positions tracked per API key):
// leverage before the first order, idempotent keys, owners' books, events.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { exchangeAccounts, users } from '../../src/db/schema/index.js';
import type { BusEvent, EventBus } from '../../src/events/index.js';
import { createInProcessEventBus } from '../../src/events/index.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import { createAccountClientCache, type ExecutionCore } from '../../src/execution/index.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { FixedPrices } from '../helpers/exchange-doubles.js';
import { testExecutionCore } from '../helpers/execution-core.js';
import { TEST_SECRET_KEY } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

const ETH = 'ETH/USDT:USDT';
const secretBox = createSecretBox(TEST_SECRET_KEY);
let database: DatabaseHandle;
let fake: FakePrivateExchange;
let core: ExecutionCore;
let userId: number;
const clock = new ManualClock(Date.UTC(2026, 0, 21, 8, 0, 0));
const events: BusEvent[] = [];

/** A core on the test database whose live accounts trade on the fake through ccxt. */
function coreOnFake(
  bus: EventBus,
  options: { sendDeadlineMs?: number; stallBeforeSendMs?: number } = {},
): ExecutionCore {
  const { stallBeforeSendMs, ...coreOptions } = options;
  return testExecutionCore({
    db: database.db,
    clock,
    events: bus,
    clients: createAccountClientCache({
      secretBox,
      factory: createExchangeClientFactory({
        paperBalances: writePaperBalances,
        db: database.db,
        clock,
        prices: new FixedPrices(),
        paperSlippageBps: 2,
        createLiveClient: (clientOptions) => {
          const client = createCcxtExchangeClient({
            ...clientOptions,
            urlsOverride: fake.url,
            timeoutMs: 1000,
            sleep: async () => {},
          });
          if (stallBeforeSendMs === undefined) return client;
          // A process that stalls inside the client, after the core's own deadline check.
          return {
            ...client,
            createOrder: async (request) => {
              await new Promise((resolve) => setTimeout(resolve, stallBeforeSendMs));
              return client.createOrder(request);
            },
          };
        },
      }),
    }),
    ...coreOptions,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeExchange({ exchange: 'binance', tracksPositions: true });
  const bus = createInProcessEventBus({ clock });
  bus.subscribe('OrderFilled', (event) => {
    events.push(event);
  });
  bus.subscribe('PositionChanged', (event) => {
    events.push(event);
  });
  core = coreOnFake(bus);
  const [user] = await database.db
    .insert(users)
    .values({
      username: 'core@example.com',
      passwordHash: 'x',
      invitationCode: 'CORE01',
      dateJoined: clock.now(),
    })
    .returning();
  userId = user!.id;
});
afterAll(async () => {
  await database.close();
  await fake.close();
});

let keys = 0;
async function liveAccount(leverage: number): Promise<{ id: number; apiKey: string }> {
  const apiKey = `core-key-${++keys}`;
  const [row] = await database.db
    .insert(exchangeAccounts)
    .values({
      userId,
      name: `Live ${keys}`,
      exchange: 'binance',
      accountType: 'classic',
      positionMode: 'net',
      defaultLeverage: leverage,
      apiKeyEncrypted: secretBox.encrypt(apiKey),
      apiSecretEncrypted: secretBox.encrypt('secret'),
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    .returning();
  return { id: row!.id, apiKey };
}

const callsOf = (apiKey: string) =>
  fake.calls.filter((c) => c.headers['x-mbx-apikey'] === apiKey && c.method === 'POST');

describe('leverage', () => {
  it('is set on the exchange before the first order of an account and symbol, and again when it changes', async () => {
    const account = await liveAccount(3);
    const manual = { kind: 'manual' as const, id: userId };
    await core.submit({
      accountId: account.id,
      symbol: ETH,
      owner: manual,
      key: 'lev1',
      size: { kind: 'delta', amount: 0.1 },
      action: 'buy',
    });
    await core.submit({
      accountId: account.id,
      symbol: ETH,
      owner: manual,
      key: 'lev2',
      size: { kind: 'delta', amount: 0.1 },
      action: 'buy',
    });
    expect(callsOf(account.apiKey).map((c) => [c.path, c.params.leverage])).toEqual([
      ['/fapi/v1/leverage', '3'],
      ['/fapi/v1/order', undefined],
      ['/fapi/v1/order', undefined],
    ]);

    await database.db
      .update(exchangeAccounts)
      .set({ defaultLeverage: 5, updatedAt: new Date(clock.now().getTime() + 1) })
      .where(eq(exchangeAccounts.id, account.id));
    await core.submit({
      accountId: account.id,
      symbol: ETH,
      owner: manual,
      key: 'lev3',
      size: { kind: 'delta', amount: 0.1 },
      action: 'buy',
    });
    expect(
      callsOf(account.apiKey)
        .slice(3)
        .map((c) => [c.path, c.params.leverage]),
    ).toEqual([
      ['/fapi/v1/leverage', '5'],
      ['/fapi/v1/order', undefined],
    ]);
  });

  it("honours an intent's own leverage: set before its first opening order, not again while it holds, never for a close", async () => {
    const account = await liveAccount(2);
    const owner = { kind: 'webhook' as const, id: 77 };
    const submit = (key: string, size: { kind: 'delta'; amount: number } | { kind: 'close' }) =>
      core.submit({
        accountId: account.id,
        symbol: ETH,
        owner,
        key,
        size,
        action: key,
        leverage: 20,
      });
    await submit('w1', { kind: 'delta', amount: 0.1 });
    await submit('w2', { kind: 'delta', amount: 0.1 });
    await submit('w3', { kind: 'close' });
    expect(callsOf(account.apiKey).map((c) => [c.path, c.params.leverage])).toEqual([
      ['/fapi/v1/leverage', '20'],
      ['/fapi/v1/order', undefined],
      ['/fapi/v1/order', undefined],
      ['/fapi/v1/order', undefined],
    ]);
    // Another owner at the account's default: set back before its order.
    await core.submit({
      accountId: account.id,
      symbol: ETH,
      owner: { kind: 'manual', id: userId },
      key: 'm-default',
      size: { kind: 'delta', amount: 0.1 },
      action: 'buy',
    });
    expect(
      callsOf(account.apiKey)
        .slice(4)
        .map((c) => [c.path, c.params.leverage]),
    ).toEqual([
      ['/fapi/v1/leverage', '2'],
      ['/fapi/v1/order', undefined],
    ]);
  });
});

describe('intents', () => {
  it('answers a repeated key with its first outcome and never sends a second order', async () => {
    const account = await liveAccount(2);
    const owner = { kind: 'webhook' as const, id: 41 };
    const intent = {
      accountId: account.id,
      symbol: ETH,
      owner,
      key: 'signal-2026-01-21T08:00:00Z#1',
      size: { kind: 'target' as const, amount: -0.2 },
      action: 'short',
    };
    const first = await core.submit(intent);
    const again = await core.submit(intent);
    expect(first.status).toBe('filled');
    expect(again.status).toBe('done');
    const orders = callsOf(account.apiKey).filter((c) => c.path === '/fapi/v1/order');
    expect(orders).toHaveLength(1);
    expect(orders[0]!.params.newClientOrderId).toMatch(/^qw41H[a-z0-9]+$/);
    expect((await core.position({ accountId: account.id, symbol: ETH, owner })).size).toBe('-0.2');
  });

  // A process that stalls after the claim: between the claim and the core's check (every send
  // is past its deadline), or inside the exchange client after that check, before the request.
  it.each([
    { where: 'before the core checks it', ownerId: 77, stall: { sendDeadlineMs: -1 } },
    {
      where: 'inside the exchange client, after the core checked it',
      ownerId: 78,
      stall: { sendDeadlineMs: 200, stallBeforeSendMs: 400 },
    },
  ])(
    'does not send an order whose send deadline passes $where: it expires, its key spent',
    async ({ ownerId, stall }) => {
      const account = await liveAccount(2);
      const owner = { kind: 'copy' as const, id: ownerId };
      const stalled = coreOnFake(createInProcessEventBus({ clock }), stall);
      const intent = {
        accountId: account.id,
        symbol: ETH,
        owner,
        key: `change-1|r${ownerId}|1|o`,
        size: { kind: 'target' as const, amount: 0.1 },
        action: 'copy_open_long',
      };
      // Certain: the request never left. The order is final (expired), not in doubt.
      await expect(stalled.submit(intent)).rejects.toMatchObject({ kind: 'rejected' });
      const orders = () => callsOf(account.apiKey).filter((c) => c.path === '/fapi/v1/order');
      expect(orders()).toHaveLength(0);
      expect((await core.intentsOf(owner)).map((i) => i.status)).toEqual(['expired']);
      // The owner's next holder has nothing to reconcile, and the key is spent: nothing is sent.
      expect(await core.reconcileIntents(owner)).toEqual([]);
      await expect(core.submit(intent)).rejects.toMatchObject({ kind: 'rejected' });
      expect(orders()).toHaveLength(0);
    },
  );

  it('keeps each owner its own part of one account position, and closes it alone', async () => {
    const account = await liveAccount(2);
    const bot = { kind: 'bot' as const, id: 901 };
    const copy = { kind: 'copy' as const, id: 17 };
    const ref = { accountId: account.id, symbol: ETH };
    await core.submitMany([
      { ...ref, owner: bot, key: 'a1', size: { kind: 'target', amount: 0.3 }, action: 'open' },
      { ...ref, owner: copy, key: 'b1', size: { kind: 'target', amount: -0.1 }, action: 'open' },
    ]);
    // The exchange holds their sum: long 0.2.
    expect(await core.reconcilePositions(account.id)).toEqual([]);
    // The copy relation closes its short: buying 0.1 cannot be reduce-only on a long account.
    const closed = await core.submit({
      ...ref,
      owner: copy,
      key: 'b2',
      size: { kind: 'close' },
      action: 'close',
    });
    expect(closed.status).toBe('filled');
    const orders = callsOf(account.apiKey).filter((c) => c.path === '/fapi/v1/order');
    expect(orders.at(-1)!.params.reduceOnly).toBeUndefined();
    expect((await core.position({ ...ref, owner: copy })).size).toBe('0');
    expect((await core.position({ ...ref, owner: bot })).size).toBe('0.3');
    expect(await core.reconcilePositions(account.id)).toEqual([]);
    // The bot's close is covered by the account's long: reduce-only.
    await core.submit({ ...ref, owner: bot, key: 'a2', size: { kind: 'close' }, action: 'close' });
    const last = callsOf(account.apiKey)
      .filter((c) => c.path === '/fapi/v1/order')
      .at(-1)!;
    expect(last.params.reduceOnly).toBe('true');
  });

  it('sends a marketable-limit IOC with its cap and reports what did not fill', async () => {
    const account = await liveAccount(2);
    const owner = { kind: 'copy' as const, id: 18 };
    const ref = { accountId: account.id, symbol: ETH, owner };
    const capped = await core.submit({
      ...ref,
      key: 'ioc1',
      size: { kind: 'delta', amount: 0.1 },
      pricing: { type: 'ioc', priceCap: 1990 },
      action: 'follow',
    });
    expect(capped.status).toBe('not_filled');
    const filled = await core.submit({
      ...ref,
      key: 'ioc2',
      size: { kind: 'delta', amount: 0.1 },
      pricing: { type: 'ioc', priceCap: 2010 },
      action: 'follow',
    });
    expect(filled.status).toBe('filled');
    const sent = callsOf(account.apiKey).filter((c) => c.path === '/fapi/v1/order');
    expect(sent.map((c) => [c.params.type, c.params.timeInForce, c.params.price])).toEqual([
      ['LIMIT', 'IOC', '1990'],
      ['LIMIT', 'IOC', '2010'],
    ]);
    expect((await core.position(ref)).size).toBe('0.1');
  });

  it('withdraws a reversal’s open leg when its close leg is refused, and sends nothing more', async () => {
    const account = await liveAccount(2);
    const owner = { kind: 'manual' as const, id: 19 };
    const ref = { accountId: account.id, symbol: ETH, owner };
    const target = (key: string, amount: number) =>
      core.submit({ ...ref, key, size: { kind: 'target', amount }, action: 'manual' });
    expect((await target('rev1', 0.1)).status).toBe('filled');
    const before = callsOf(account.apiKey).length;
    fake.failNext('POST', '/fapi/v1/order', {
      kind: 'http',
      status: 400,
      body: { code: -2022, msg: 'ReduceOnly Order is rejected.' },
    });
    await expect(target('rev2', -0.1)).rejects.toMatchObject({ kind: 'rejected' });
    const legs = (await core.intentsOf(owner)).filter((i) => i.idempotencyKey === 'rev2');
    expect(legs.map((i) => [i.reduceOnly, i.status])).toEqual([
      [true, 'rejected'],
      [false, 'canceled'],
    ]);
    expect(legs[1]!.error).toContain('withdrawn');
    // Only the refused close reached the venue; the position is as it was.
    expect(callsOf(account.apiKey).filter((c) => c.path === '/fapi/v1/order')).toHaveLength(
      callsOf(account.apiKey)
        .slice(0, before)
        .filter((c) => c.path === '/fapi/v1/order').length + 1,
    );
    expect((await core.position(ref)).size).toBe('0.1');
    // The same key again: still refused, and still nothing sent.
    await expect(target('rev2', -0.1)).rejects.toMatchObject({ kind: 'rejected' });
    expect(callsOf(account.apiKey).length).toBe(before + 1);
  });

  it('publishes every fill and position change with ids a subscriber can drop repeats by', async () => {
    const account = await liveAccount(2);
    const owner = { kind: 'manual' as const, id: userId };
    events.length = 0;
    await core.submit({
      accountId: account.id,
      symbol: ETH,
      owner,
      key: 'ev1',
      size: { kind: 'delta', amount: 0.05 },
      action: 'buy',
    });
    await new Promise((resolve) => setImmediate(resolve));
    const mine = events.filter(
      (e) => (e.payload as { accountId: number }).accountId === account.id,
    );
    expect(mine.map((e) => e.type)).toEqual(['OrderFilled', 'PositionChanged']);
    expect(mine[0]!.payload).toMatchObject({
      userId,
      symbol: ETH,
      owner,
      side: 'buy',
      amount: 0.05,
      price: 2000,
      reduceOnly: false,
    });
    expect(mine[1]!.payload).toMatchObject({ owner, size: 0.05, entryPrice: 2000 });
    expect(mine[0]!.id).toMatch(/^order:/);
  });
});
