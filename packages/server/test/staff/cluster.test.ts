import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/common/clock.js';
import { createClusterMembership } from '../../src/common/cluster.js';
import { botLease, createLeases, jobLease } from '../../src/common/leases.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { newStaff, newUser } from '../helpers/wallet-flows.js';

// GET /api/staff/cluster/: the deployment's processes, with the leases each holds by kind.

const t = useTestApp();

type Member = {
  id: string;
  role: string;
  host: string;
  pid: number;
  started_at: string;
  last_heartbeat: string;
  is_live: boolean;
  leases: Record<string, number>;
};

describe('GET /api/staff/cluster/', () => {
  it('lists each process with its role, heartbeat and leases by kind, for staff only', async () => {
    const worker = createClusterMembership({
      db: t.database.db,
      clock: systemClock,
      id: 'host-1:100:worker',
      role: 'worker',
    });
    const api = createClusterMembership({
      db: t.database.db,
      clock: systemClock,
      id: 'host-1:101:api',
      role: 'api',
    });
    await worker.beat();
    await api.beat();
    const leases = createLeases({ db: t.database.db, holderId: worker.id, preference: worker });
    await leases.acquire([botLease(1), botLease(2), jobLease('snapshots')]);

    const staff = await newStaff(t);
    const res = await call<{ members: Member[] }>(t.app, 'GET', '/api/staff/cluster/', {
      token: staff.access,
    });
    expect(res.status).toBe(200);
    const listed = new Map(res.body.members.map((m) => [m.id, m]));
    expect(listed.get(worker.id)).toMatchObject({
      role: 'worker',
      pid: process.pid,
      is_live: true,
      leases: { bot: 2, job: 1 },
    });
    expect(listed.get(api.id)).toMatchObject({ role: 'api', is_live: true, leases: {} });
    const member = listed.get(worker.id);
    expect(Number.isNaN(Date.parse(member?.last_heartbeat ?? ''))).toBe(false);
    expect(Date.parse(member?.started_at ?? '')).toBeLessThanOrEqual(
      Date.parse(member?.last_heartbeat ?? ''),
    );

    // A process that stopped cleanly leaves the list.
    await api.stop();
    const after = await call<{ members: Member[] }>(t.app, 'GET', '/api/staff/cluster/', {
      token: staff.access,
    });
    expect(after.body.members.map((m) => m.id)).not.toContain(api.id);

    const user = await newUser(t);
    expect((await call(t.app, 'GET', '/api/staff/cluster/', { token: user.access })).status).toBe(
      403,
    );
    expect((await call(t.app, 'GET', '/api/staff/cluster/')).status).toBe(401);
    await leases.release(leases.held());
    await worker.stop();
  });
});
