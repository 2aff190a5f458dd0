// What ends or pauses copies from outside the relation (defects 12 and 13), over HTTP: a leader
// who makes the account private or turns copying off stops its running and paused copies as
// leader_gone, their copied positions closed, each follower told why and still able to open the
// stopped copy; a follower account disabled pauses its running copies (the reason shown) and
// enabling it resumes them — a copy its follower paused stays paused.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationLogs } from '../../src/db/schema/index.js';
import { call } from '../helpers/test-app.js';
import { BTC, copyFlows, eventually, useCopyEngineApp } from './copy-engine-fixture.js';
import { COPY, leader } from './copy-fixture.js';

const t = useCopyEngineApp();

beforeAll(() => {
  t.services.copyTrading.engine.start();
});

const flows = copyFlows(t);
const { leaderTo, follow } = flows;
type Follower = Awaited<ReturnType<typeof follow>>;
const copiedSize = (f: Follower) => flows.copiedSize(f.accountId, f.relationId);
const engine = () => t.services.copyTrading.engine;

const detail = (f: Follower) =>
  call<{ relation: Record<string, unknown>; receipts: Record<string, unknown>[] }>(
    t.app,
    'GET',
    `${COPY}/${f.relationId}/`,
    { token: f.access },
  );
const act = (f: Follower, action: 'pause' | 'resume') =>
  call(t.app, 'PUT', `${COPY}/${f.relationId}/${action}/`, { token: f.access });
const logOf = async (userId: number, event: 'copy_stopped' | 'copy_paused' | 'copy_resumed') =>
  (
    await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, userId), eq(operationLogs.event, event)))
  ).map((row) => ({ type: row.type, message: row.message, details: row.details }));
const shareSettings = (lead: Awaited<ReturnType<typeof leader>>, body: Record<string, unknown>) =>
  call(t.app, 'PUT', `/api/strategy-square/accounts/${lead.accountId}/share-settings/`, {
    token: lead.access,
    body,
  });

describe('a leader withdrawing the strategy', () => {
  it.each([
    ['makes the account private', { is_public: false }, 'private'],
    ['turns copying off', { accept_copy: false }, 'copy_off'],
  ] as const)(
    '%s: running and paused copies stop as leader_gone, positions closed',
    async (_, settings, change) => {
      t.prices.set(BTC, 50_000);
      const lead = await leader(t);
      const running = await follow(lead);
      const paused = await follow(lead);
      await leaderTo(lead, 0.2);
      await eventually(async () => {
        expect(await copiedSize(running)).toBeCloseTo(0.002, 8);
        expect(await copiedSize(paused)).toBeCloseTo(0.002, 8);
      });
      await engine().idle();
      expect((await act(paused, 'pause')).status).toBe(200);

      const res = await shareSettings(lead, settings);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // The bus delivers the change on a later tick; the engine stops and closes both copies.
      await eventually(async () => {
        expect(await copiedSize(running)).toBe(0);
        expect(await copiedSize(paused)).toBe(0);
      });
      await engine().idle();

      for (const f of [running, paused]) {
        // The follower still opens the stopped copy's page, which says why it stopped.
        const seen = await detail(f);
        expect(seen.status).toBe(200);
        expect(seen.body.relation).toMatchObject({ status: 'stopped', stop_reason: 'leader_gone' });
        expect(await copiedSize(f)).toBe(0);
        expect(await logOf(f.id, 'copy_stopped')).toEqual([
          expect.objectContaining({
            type: 'system',
            details: expect.objectContaining({
              relation_id: f.relationId,
              reason: 'leader_gone',
              leader_change: change,
            }),
          }),
        ]);
      }
      // The strategy counts its copiers out.
      const share = await call<{ copiers_count: number }>(
        t.app,
        'GET',
        `/api/strategy-square/accounts/${lead.accountId}/share-settings/`,
        { token: lead.access },
      );
      expect(share.body.copiers_count).toBe(0);
      // The leader's next change is copied to no one.
      await leaderTo(lead, 0);
      await engine().tick();
      await engine().idle();
      for (const f of [running, paused]) {
        expect((await detail(f)).body.receipts.filter((r) => r.leader_size === '0')).toEqual([]);
      }
    },
  );

  it('a change the engine did not hear (not running) is caught up by its next pass', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const f = await follow(lead);
    await engine().stop();
    try {
      expect((await shareSettings(lead, { accept_copy: false })).status).toBe(200);
      expect((await detail(f)).body.relation).toMatchObject({ status: 'active' });
    } finally {
      engine().start();
    }
    await engine().tick();
    await engine().idle();
    expect((await detail(f)).body.relation).toMatchObject({
      status: 'stopped',
      stop_reason: 'leader_gone',
    });
  });
});

describe('a disabled follower account', () => {
  const setEnabled = async (f: Follower, isActive: boolean) => {
    const res = await call(t.app, 'PATCH', `/api/auth/apis/${f.accountId}/`, {
      token: f.access,
      body: { is_active: isActive },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('pauses its copies with the reason, and resumes them when enabled again', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const f = await follow(lead);
    await setEnabled(f, false);
    await engine().tick();
    await engine().idle();
    const paused = await detail(f);
    expect(paused.body.relation).toMatchObject({
      status: 'paused',
      pause_reason: 'account_disabled',
    });
    expect(await logOf(f.id, 'copy_paused')).toEqual([
      expect.objectContaining({
        type: 'system',
        details: expect.objectContaining({ reason: 'account_disabled' }),
      }),
    ]);
    // The follower cannot resume it while the account is disabled; nothing is copied to it.
    expect((await act(f, 'resume')).status).toBe(409);
    await leaderTo(lead, 0.2);
    await engine().idle();
    expect(await copiedSize(f)).toBe(0);

    await setEnabled(f, true);
    await engine().tick();
    await eventually(async () => expect(await copiedSize(f)).toBeCloseTo(0.002, 8));
    await engine().idle();
    expect((await detail(f)).body.relation).toMatchObject({
      status: 'active',
      pause_reason: null,
    });
    expect(await logOf(f.id, 'copy_resumed')).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ reason: 'account_enabled' }) }),
    ]);
    await leaderTo(lead, 0);
    await engine().idle();
  });

  it('leaves a copy its follower paused paused when the account comes back', async () => {
    const lead = await leader(t);
    const f = await follow(lead);
    expect((await act(f, 'pause')).status).toBe(200);
    await setEnabled(f, false);
    await engine().tick();
    await setEnabled(f, true);
    await engine().tick();
    await engine().idle();
    expect((await detail(f)).body.relation).toMatchObject({ status: 'paused', pause_reason: null });
  });
});
