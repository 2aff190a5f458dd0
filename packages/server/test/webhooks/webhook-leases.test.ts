// With more than one process, a configuration's signals run in the one process holding its
// lease (`webhook:<id>`). Here another holder has the lease: the signal is accepted and waits,
// untouched; when that holder stops renewing (a process that died), this process takes the
// configuration over on its next look at the queue and fills the signal once.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createLeases, webhookLease } from '../../src/common/leases.js';
import { executionOrders, webhookSignals } from '../../src/db/schema/index.js';
import { useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, webhookUser } from './webhook-flows.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });

const signalRow = async (id: number) =>
  (await ctx.database.db.select().from(webhookSignals).where(eq(webhookSignals.id, id)))[0];

describe('webhook configurations under leases', () => {
  it('leaves a signal to the holder of its configuration, and takes over when the holder dies', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'lease');
    const { id: configId, path } = await createConfig(ctx.app, token, accountId);
    // Another process holds the configuration, then dies (it never renews its 1.5 s lease).
    const other = createLeases({ db: ctx.database.db, holderId: 'another-process', ttlMs: 1500 });
    expect(await other.acquire([webhookLease(configId)])).toEqual([webhookLease(configId)]);

    const posted = await postAlert(ctx.app, path, { action: 'buy', amount: 100, id: 'l1' });
    expect(posted.status).toBe(202);
    const signalId = Number(posted.body.signal_id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Accepted, and not run here: the configuration is another process's.
    expect((await signalRow(signalId))?.status).toBe('validated');

    // The holder's lease lapses; this process's next poll takes the configuration and runs it.
    await vi.waitFor(async () => expect((await signalRow(signalId))?.status).toBe('filled'), {
      timeout: 10_000,
      interval: 100,
    });
    const orders = await ctx.database.db
      .select()
      .from(executionOrders)
      .where(and(eq(executionOrders.ownerKind, 'webhook'), eq(executionOrders.ownerId, configId)));
    expect(orders.map((o) => o.status)).toEqual(['filled']);
    // The dead holder cannot take it back while this process renews it.
    expect(await other.acquire([webhookLease(configId)])).toEqual([]);
  });
});
