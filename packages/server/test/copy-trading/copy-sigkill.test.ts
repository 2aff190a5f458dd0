// SIGKILL fault test of copy trading: the execution core and the copy engine run in a process of
// their own (copy-child.ts) with one leader and FOLLOWERS followers, each on its own API key at the
// ccxt fake (a slow venue: every order waits ORDER_DELAY_MS before it is taken). The leader opens
// a position; while the engine's fan-out is in flight the process is SIGKILLed: some followers
// hold their order, others have none yet, one order is on its way to the venue (taken after the
// death: its answer is lost) and one follower's intent is written but not sent (its leverage call
// hangs). A second process restarts the engine — its start-up heal (engine.start() → tick), or
// first the leader's change delivered again three times — and every follower converges to its
// target with exactly one order at the venue, no intent left pending or unknown. On PostgreSQL with
// TEST_DATABASE_URL (a database cloned from the run's template), else on a file-backed PGlite.
// The last two cases guard two defects the restart once had (a copied trade counted 0, a written
// intent lost or sent under a second key).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import {
  copyReceipts,
  copyRelations,
  exchangeAccounts,
  executionOrders,
  executionPositions,
  operationLogs,
} from '../../src/db/schema/index.js';
import { isFollowed } from '../../src/execution/order-states.js';
import {
  type FakeCall,
  type FakePrivateExchange,
  startFakeExchange,
} from '../exchange/fake-exchange-private.js';
import { followChild } from '../helpers/child-output.js';
import { randomSuffix, withDatabase } from '../helpers/test-database-info.js';
import {
  COPY_SYMBOL,
  copyAmountOf,
  followerApiKey,
  LEADER_API_KEY,
  LEADER_EQUITY,
  LEADER_SIZE,
} from './copy-fault-plan.js';

const CHILD = fileURLToPath(new URL('./copy-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** 40 followers on PostgreSQL; 20 on the slower embedded PGlite (one connection). */
const FOLLOWERS = inject('testDatabase').kind === 'postgres' ? 40 : 20;
/** Relations the engine reconciles at once: the fan-out takes several rounds of slow orders. */
const CONCURRENCY = 4;
const ORDER_DELAY_MS = 150;
/** The kill comes once this many followers hold their order (and another one is in flight). */
const KILL_AFTER = 8;
/** Each wait's deadline: generous, for a loaded machine (a run takes ~20 s per scenario). */
const WAIT_MS = 90_000;

/** Follower i's target: the leader's size × copy amount / leader equity, on Binance's 0.001 step. */
const targetOf = (index: number) =>
  new Decimal(LEADER_SIZE)
    .times(copyAmountOf(index))
    .dividedBy(LEADER_EQUITY)
    .toDecimalPlaces(3, Decimal.ROUND_DOWN);

const cleanups: (() => Promise<void> | void)[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A database of its own: cloned from the run's PostgreSQL template, else a PGlite data dir. */
async function freshDatabase(): Promise<{ databaseUrl: string | undefined; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qs-copy-kill-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const info = inject('testDatabase');
  if (info.kind !== 'postgres') return { databaseUrl: undefined, dataDir };
  const name = `qs_test_${randomSuffix()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: info.serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name} TEMPLATE ${info.templateName}`);
  cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return { databaseUrl: withDatabase(info.serverUrl, name), dataDir };
}

interface Progress {
  ready?: number[];
  leader?: boolean;
  /** The last copied sizes the process printed, per relation id. */
  sizes?: Record<string, string>;
}

/** Polls `probe` (every 50 ms, up to WAIT_MS) until it answers something. */
async function waitFor<T>(probe: () => T | undefined, why: () => string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${why()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const apiKeyOf = (call: FakeCall) => String(call.headers['x-mbx-apikey'] ?? '');
const isFollower = (apiKey: string) => apiKey !== LEADER_API_KEY;

interface Outcome {
  fake: FakePrivateExchange;
  /** Client order ids posted before the kill and taken by the venue after it. */
  inFlight: string[];
  /** Every order POST's client order id, by the first process and by the restart. */
  posted: { first: string[]; restart: string[] };
  /** The follower (API key) whose intent was written but never sent: its leverage call hung. */
  unsentKey: string;
  relations: (typeof copyRelations.$inferSelect)[];
  accounts: (typeof exchangeAccounts.$inferSelect)[];
  intents: (typeof executionOrders.$inferSelect)[];
  book: (typeof executionPositions.$inferSelect)[];
  receipts: (typeof copyReceipts.$inferSelect)[];
  logs: (typeof operationLogs.$inferSelect)[];
}

/** The follower index of a relation (its account is named copyfollower<i>). */
const indexOf = (o: Outcome, relation: { followerAccountId: number }) =>
  Number(
    (o.accounts.find((a) => a.id === relation.followerAccountId)?.name ?? '').replace(
      'copyfollower',
      '',
    ),
  );

/** Set-up and SIGKILL mid-fan-out, then the restart until every follower is at its target. */
async function killAndRestart(options: { redeliver: boolean }): Promise<Outcome> {
  const fake = await startFakeExchange({
    exchange: 'binance',
    tracksPositions: true,
    orderDelayMs: ORDER_DELAY_MS,
  });
  cleanups.push(() => fake.close());
  const { databaseUrl, dataDir } = await freshDatabase();
  const startProcess = (setup: boolean) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        FAKE_URL: fake.url,
        FOLLOWERS: String(FOLLOWERS),
        CONCURRENCY: String(CONCURRENCY),
        SETUP: setup ? '1' : '0',
        REDELIVER: !setup && options.redeliver ? '1' : '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const progress: Progress = {};
    const output = followChild<Progress>(child, (message) => Object.assign(progress, message));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const why = () =>
      `${child.exitCode !== null ? `exited ${child.exitCode}` : 'running'}; stderr: ${output.stderr().slice(-2000)}`;
    return { child, progress, exited, why };
  };
  const followerOrders = () => fake.state.orders.filter((o) => isFollower(o.apiKey));
  const followerPosts = () =>
    fake.callsTo('/fapi/v1/order', 'POST').filter((c) => isFollower(apiKeyOf(c)));
  const leverageCalls = () => fake.callsTo('/fapi/v1/leverage', 'POST');

  const first = startProcess(true);
  const relationIds = await waitFor(() => first.progress.ready, first.why);
  expect(relationIds).toHaveLength(FOLLOWERS);
  await waitFor(() => first.progress.leader, first.why);
  // The next follower's leverage call never answers: its intent is written, not sent.
  const leverageBefore = leverageCalls().length;
  fake.failNext('POST', '/fapi/v1/leverage', { kind: 'hang' });
  // Kill mid-fan-out: some followers hold their order, one more is on its way to the venue.
  // (The fake runs in this process: no order is taken between this check and the kill.)
  await waitFor(
    () =>
      leverageCalls().length > leverageBefore &&
      followerOrders().length >= KILL_AFTER &&
      followerPosts().length > followerOrders().length
        ? true
        : undefined,
    () => `${followerOrders().length} follower orders; ${first.why()}`,
  );
  first.child.kill('SIGKILL');
  // What the venue holds at the kill (read before any await: the fake's timers do not run).
  const hung = leverageCalls()[leverageBefore];
  const unsentKey = hung ? apiKeyOf(hung) : '';
  const placedAtKill = new Set(followerOrders().map((o) => o.apiKey));
  const placedIds = new Set(followerOrders().map((o) => o.clientOrderId));
  const inFlight = followerPosts()
    .map((c) => c.params.newClientOrderId ?? '')
    .filter((id) => !placedIds.has(id));
  await first.exited;
  expect(inFlight.length).toBeGreaterThan(0);
  // The venue takes the orders that were on their way, after the process is gone.
  await waitFor(
    () => (inFlight.every((id) => fake.state.ordersByClientId.has(id)) ? true : undefined),
    () => 'the in-flight orders were not taken',
  );
  expect(placedAtKill.size).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(new Set(followerOrders().map((o) => o.apiKey)).size).toBeLessThan(FOLLOWERS);
  expect(placedAtKill.has(unsentKey)).toBe(false);

  // The restart, until every follower's copied size is its target.
  const postedIds = () =>
    fake.callsTo('/fapi/v1/order', 'POST').map((c) => c.params.newClientOrderId ?? '');
  const postedFirst = postedIds();
  const second = startProcess(false);
  const sorted = [...relationIds].sort((a, b) => a - b);
  const expectedSizes = new Map(sorted.map((id, index) => [String(id), targetOf(index)]));
  await waitFor(
    () => {
      const sizes = second.progress.sizes;
      if (!sizes) return undefined;
      const done = [...expectedSizes].every(([id, target]) => target.eq(sizes[id] ?? '0'));
      return done ? true : undefined;
    },
    () => `sizes ${JSON.stringify(second.progress.sizes)}; ${second.why()}`,
  );
  second.child.kill('SIGTERM');
  await second.exited;

  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const db = database.db;
    return {
      fake,
      inFlight,
      posted: { first: postedFirst, restart: postedIds().slice(postedFirst.length) },
      unsentKey,
      relations: await db.select().from(copyRelations),
      accounts: await db.select().from(exchangeAccounts),
      intents: await db.select().from(executionOrders).orderBy(executionOrders.id),
      book: await db.select().from(executionPositions),
      receipts: await db.select().from(copyReceipts),
      logs: await db.select().from(operationLogs),
    };
  } finally {
    await database.close();
  }
}

/** Every follower at its target in the book and at the venue, with one order; none unsettled. */
function expectConverged(o: Outcome): void {
  const { fake } = o;
  expect(o.relations).toHaveLength(FOLLOWERS);
  // No orphan: every order at the venue is one of our intents, filled.
  const byClientId = new Map(o.intents.map((i) => [i.clientOrderId, i]));
  for (const order of fake.state.orders) {
    expect(byClientId.get(order.clientOrderId)?.status, order.clientOrderId).toBe('filled');
  }
  expect(o.intents.filter((i) => i.status === 'created' || isFollowed(i))).toEqual([]);
  // The orders taken after the kill were settled by the restart.
  for (const id of o.inFlight) expect(byClientId.get(id)?.status, id).toBe('filled');

  for (const relation of o.relations) {
    const index = indexOf(o, relation);
    const target = targetOf(index);
    const label = `follower ${index} (relation ${relation.id})`;
    expect(relation.status, label).toBe('active');
    expect(relation.lastError, label).toBeNull();
    // The book: the relation's position is its target.
    const held = o.book.find(
      (p) =>
        p.ownerKind === 'copy' &&
        p.ownerId === relation.id &&
        p.accountId === relation.followerAccountId &&
        p.symbol === COPY_SYMBOL,
    );
    expect(new Decimal(held?.size ?? 0).toString(), label).toBe(target.toString());
    // The venue: exactly one (opening) order for the leader's one change, filled at the target;
    // the account's position there is the target too.
    const orders = fake.state.orders.filter((x) => x.apiKey === followerApiKey(index));
    expect(
      orders.map((x) => [x.side, x.status, x.filled]),
      label,
    ).toEqual([['buy', 'filled', target.toNumber()]]);
    const atVenue = fake.state.accountPositions.get(followerApiKey(index)) ?? [];
    expect(
      atVenue.map((p) => [p.base, p.side, p.size]),
      label,
    ).toEqual([['BTC', 'long', target.toNumber()]]);
    expect(
      o.intents.filter(
        (i) => i.ownerKind === 'copy' && i.ownerId === relation.id && i.status === 'filled',
      ),
      label,
    ).toHaveLength(1);
    // One receipt for the one leader change, copied.
    const mine = o.receipts.filter((r) => r.relationId === relation.id);
    expect(
      mine.map((r) => [r.status, new Decimal(r.targetSize).toString()]),
      label,
    ).toEqual([['copied', target.toString()]]);
  }
}

const intentsOfFollower = (o: Outcome, apiKey: string) => {
  const relation = o.relations.find((r) => followerApiKey(indexOf(o, r)) === apiKey);
  expect(relation, apiKey).toBeDefined();
  return o.intents
    .filter((i) => i.ownerKind === 'copy' && i.ownerId === relation?.id)
    .map((i) => [i.status, i.error]);
};
const repeated = (ids: string[]) => ids.filter((id, i) => ids.indexOf(id) !== i);

describe('copy trading: SIGKILL of the engine process in the middle of a fan-out', () => {
  // The heal scenario's outcome, shared by the tests below it (run once, by whichever comes first).
  let healed: Outcome | undefined;
  const healedRun = async () => {
    healed ??= await killAndRestart({ redeliver: false });
    return healed;
  };

  it('the restart heal brings every follower to its target: one order each, nothing sent twice', async () => {
    const healed = await healedRun();
    expectConverged(healed);
    // No order sent twice: one POST per client order id (the heal settles what was in flight
    // by looking it up, never by sending it again).
    const posted = [...healed.posted.first, ...healed.posted.restart];
    expect(repeated(posted), 'orders posted twice').toEqual([]);
    // The intent written and never sent is the follower's one decision: the restart sends it
    // under its own key (claimed under the restart's lease), once.
    expect(intentsOfFollower(healed, healed.unsentKey)).toEqual([['filled', null]]);
  }, 240_000);

  it('the leader change delivered three times after the restart: still one order per follower', async () => {
    const o = await killAndRestart({ redeliver: true });
    expectConverged(o);
    // The event path does not look up in-flight intents first: it submits the same key, whose
    // pending intent is sent again under the same client order id, and the venue's duplicate
    // check answers the existing order. No process posts an id twice.
    expect(repeated(o.posted.first), 'posted twice by the first process').toEqual([]);
    expect(repeated(o.posted.restart), 'posted twice by the restart').toEqual([]);
    // The intent never sent: the events met it still on its way and decided nothing; the
    // restart's heal sent it under its own key. One intent, filled.
    expect(intentsOfFollower(o, o.unsentKey)).toEqual([['filled', null]]);
  }, 240_000);

  // Once a defect (reconcileSymbol's `target.eq(own)` branch with no receipt yet): a follower whose order was in flight at the kill is settled by the restart's
  // reconcileIntents before the heal decides; the heal then finds the target held and writes the
  // change's receipt with follower_size_delta 0, so the copied trade vanishes from
  // total_copied_trades (0 instead of 1).
  it('the receipt keeps the fill of an order the restart settled', async () => {
    const o = await healedRun();
    expect(o.inFlight.length).toBeGreaterThan(0);
    for (const relation of o.relations) {
      const index = indexOf(o, relation);
      const label = `follower ${index} (relation ${relation.id})`;
      const receipt = o.receipts.find((r) => r.relationId === relation.id);
      expect(new Decimal(receipt?.followerSizeDelta ?? 0).toString(), label).toBe(
        targetOf(index).toString(),
      );
      expect(relation.totalCopiedTrades, label).toBe(1);
    }
  }, 240_000);

  // Once a defect (the try number in the key came from the receipt alone), then a rule (one
  // decision, one key): an intent the dead process wrote but never sent was expired by the
  // heal's reconcileIntents, and the change missed or sent again under a new key. Now the heal
  // sends the written intent of the current decision under its own key before reconciling.
  it('an intent the dead process never sent is copied on restart without an error', async () => {
    const o = await healedRun();
    expect(intentsOfFollower(o, o.unsentKey)).toEqual([['filled', null]]);
    expect(
      o.logs.filter((l) => l.type === 'error').map((l) => l.message),
      'errors in the followers’ operation logs',
    ).toEqual([]);
  }, 240_000);
});
