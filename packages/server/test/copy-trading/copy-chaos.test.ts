// Everything a copier and a leader can do, all in flight at once while the leader trades: every
// answer is a decision (2xx or 4xx, never 5xx), each copy's fee is paid exactly once, no account
// holds two live copies of one leader, the ledger balances, and every stopped copy ends flat.
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { copyRelations, walletTransactions } from '../../src/db/schema/index.js';
import { call } from '../helpers/test-app.js';
import { adminFor } from '../helpers/wallet-flows.js';
import { copyFlows, eventually, useCopyEngineApp } from './copy-engine-fixture.js';
import { COPY, copier, createCopy, leader } from './copy-fixture.js';

const t = useCopyEngineApp();
const flows = copyFlows(t);

/** A seeded generator, so a failing mix can be replayed. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

type Answer = { kind: string; status: number; body: unknown };

describe('copy trading under concurrent use', () => {
  it('six copiers create, edit, pause, resume, stop and delete at once while the leader trades and changes its share settings', async () => {
    const lead = await leader(t, { accept_copy: true });
    const copiers = await Promise.all(Array.from({ length: 6 }, () => copier(t, '200')));
    const random = seeded(20261126);
    const answers: Answer[] = [];
    const created = new Map<number, number[]>(); // copier index → relation ids it was answered
    const record = (kind: string, res: { status: number; body: unknown }) => {
      answers.push({ kind, status: res.status, body: res.body });
      return res;
    };
    const relationsOf = async (accountId: number) =>
      t.database.db
        .select({ id: copyRelations.id, status: copyRelations.status })
        .from(copyRelations)
        .where(eq(copyRelations.followerAccountId, accountId));

    let leaderSize = 0;
    for (let wave = 0; wave < 6; wave++) {
      const operations: Promise<unknown>[] = [];
      // The leader trades in every wave, through the execution core (its own driver).
      leaderSize = [0.3, 0.5, 0, -0.2, 0.4, 0.1][wave] ?? 0;
      operations.push(flows.leaderTo(lead, leaderSize));
      if (wave === 2 || wave === 4) {
        const accept = wave === 4;
        operations.push(
          call(t.app, 'PUT', `/api/strategy-square/accounts/${lead.accountId}/share-settings/`, {
            token: lead.access,
            body: { is_public: true, accept_copy: accept },
          }).then((res) => record('share', res)),
        );
      }
      for (const [index, user] of copiers.entries()) {
        const ids = (await relationsOf(user.accountId)).map((row) => row.id);
        for (let i = 0; i < 3; i++) {
          const pick = random();
          const id = ids.length > 0 ? ids[Math.floor(random() * ids.length)] : undefined;
          if (pick < 0.3 || id === undefined) {
            operations.push(
              createCopy(t.app, user.access, {
                leader_account_id: lead.accountId,
                follower_account_id: user.accountId,
                copy_amount: '100',
              }).then((res) => {
                record('create', res);
                if (res.status === 201) {
                  created.set(index, [...(created.get(index) ?? []), res.body.id as number]);
                }
              }),
            );
          } else if (pick < 0.7) {
            const action = (['pause', 'resume', 'stop'] as const)[Math.floor(random() * 3)];
            operations.push(
              call(t.app, 'PUT', `${COPY}/${id}/${action}/`, { token: user.access }).then((res) =>
                record(action ?? 'action', res),
              ),
            );
          } else if (pick < 0.85) {
            operations.push(
              call(t.app, 'PATCH', `${COPY}/${id}/update/`, {
                token: user.access,
                body: { copy_amount: String(50 + Math.floor(random() * 100)) },
              }).then((res) => record('update', res)),
            );
          } else {
            operations.push(
              call(t.app, 'DELETE', `${COPY}/${id}/delete/`, { token: user.access }).then((res) =>
                record('delete', res),
              ),
            );
          }
        }
      }
      await Promise.all(operations);
    }

    // Every answer was a decision, none an internal error.
    const failures = answers.filter((a) => a.status >= 500);
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    expect(answers.filter((a) => a.kind === 'create' && a.status === 201).length).toBeGreaterThan(
      0,
    );

    const accountIds = copiers.map((c) => c.accountId);
    const relations = await t.database.db
      .select()
      .from(copyRelations)
      .where(inArray(copyRelations.followerAccountId, accountIds));
    // Each relation answered 201 exists, and no other was made.
    const answeredIds = [...created.values()].flat().sort((a, b) => a - b);
    expect(relations.map((r) => r.id).sort((a, b) => a - b)).toEqual(answeredIds);
    // At most one live copy per account of this leader.
    for (const accountId of accountIds) {
      const live = relations.filter(
        (r) => r.followerAccountId === accountId && r.deletedAt === null && r.status !== 'stopped',
      );
      expect(live.length, `account ${accountId}`).toBeLessThanOrEqual(1);
    }
    // One fee per relation made: debited from the copier, credited to the leader.
    const fees = await t.database.db
      .select({ type: walletTransactions.type, key: walletTransactions.businessKey })
      .from(walletTransactions)
      .where(
        and(
          eq(walletTransactions.type, 'copy_fee'),
          eq(walletTransactions.counterpartyUserId, lead.id),
        ),
      );
    expect(fees.map((f) => f.key).sort()).toEqual(relations.map((r) => `copy_fee:${r.id}`).sort());
    expect(await adminFor(t).run({ command: 'check-ledger' })).toMatch(/^Ledger clean/);

    // Stop what is still live: every copy ends flat, the leader's last trade notwithstanding.
    for (const relation of relations.filter(
      (r) => r.deletedAt === null && r.status !== 'stopped',
    )) {
      const owner = copiers.find((c) => c.accountId === relation.followerAccountId);
      const res = await call(t.app, 'PUT', `${COPY}/${relation.id}/stop/`, {
        token: owner?.access,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await eventually(async () => {
      for (const relation of relations) {
        expect(await flows.copiedSize(relation.followerAccountId, relation.id)).toBe(0);
      }
    }, 20_000);
  }, 120_000);

  it('copiers and the leader delete their accounts while copies are being made, changed and traded', async () => {
    const lead = await leader(t, { accept_copy: true });
    const copiers = await Promise.all(Array.from({ length: 4 }, () => copier(t, '200')));
    await flows.leaderTo(lead, 0.2);
    const answers: Answer[] = [];
    const record = (kind: string) => (res: { status: number; body: unknown }) => {
      answers.push({ kind, status: res.status, body: res.body });
      return res;
    };
    // As a user does when told a copy traded meanwhile ("try again"): again, a few times.
    const deleteAccount = async (user: { access: string }, accountId: number) => {
      for (let attempt = 1; ; attempt++) {
        const res = await call(t.app, 'DELETE', `/api/auth/apis/${accountId}/`, {
          token: user.access,
        });
        const retry = res.status === 400 && res.body.open_symbols !== undefined && attempt < 20;
        if (!retry) return record('delete account')(res);
        record('delete account refused while trading')(res);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const copyOf = (user: (typeof copiers)[number]) =>
      createCopy(t.app, user.access, {
        leader_account_id: lead.accountId,
        follower_account_id: user.accountId,
        copy_amount: '100',
      }).then(record('create'));

    // Two copiers delete their accounts as they start copying; the others copy.
    await Promise.all([
      ...copiers.map((user) => copyOf(user)),
      ...copiers.slice(0, 2).map((user) => deleteAccount(user, user.accountId)),
      flows.leaderTo(lead, 0.4),
    ]);
    // The leader's account goes while the rest pause, resume and copy again.
    const live = await t.database.db
      .select({ id: copyRelations.id, accountId: copyRelations.followerAccountId })
      .from(copyRelations)
      .where(eq(copyRelations.leaderAccountId, lead.accountId));
    await Promise.all([
      deleteAccount(lead, lead.accountId),
      ...live.flatMap((relation) => {
        const user = copiers.find((c) => c.accountId === relation.accountId);
        if (!user) return [];
        return [
          call(t.app, 'PUT', `${COPY}/${relation.id}/pause/`, { token: user.access }).then(
            record('pause'),
          ),
          call(t.app, 'PUT', `${COPY}/${relation.id}/resume/`, { token: user.access }).then(
            record('resume'),
          ),
        ];
      }),
      ...copiers.slice(2).map((user) => copyOf(user)),
    ]);

    const failures = answers.filter((a) => a.status >= 500);
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    // A copy made on an account deleted meanwhile is refused (409), the deletions all go through.
    const deletions = answers.filter((a) => a.kind === 'delete account');
    expect(
      deletions.every((a) => a.status === 200),
      JSON.stringify(deletions),
    ).toBe(true);
    // Nothing is left of the deleted accounts' copies, and no copy of the gone leader runs.
    const left = await t.database.db
      .select()
      .from(copyRelations)
      .where(eq(copyRelations.leaderAccountId, lead.accountId));
    expect(left).toEqual([]);
    expect(await adminFor(t).run({ command: 'check-ledger' })).toMatch(/^Ledger clean/);
    // The copiers who kept their accounts hold no copied position.
    for (const user of copiers.slice(2)) {
      for (const relation of live.filter((r) => r.accountId === user.accountId)) {
        expect(await flows.copiedSize(user.accountId, relation.id)).toBe(0);
      }
    }
  }, 120_000);
});
