// One worker process of `npm run bench -- orders-processes`: its own execution core on its own
// share of the accounts, on the bench's PostgreSQL database (and fake venue). Speaks over IPC:
// ← {type: 'start', …}; → {type: 'ready'} after a warm-up fan-out; ← {type: 'go'};
// → {type: 'done', orders, failed, startedAtMs, endedAtMs, firstError?} (wall clock).
import { systemClock } from '../packages/server/src/common/clock.js';
import { openPostgres } from '../packages/server/src/db/client.js';
import { createInProcessEventBus } from '../packages/server/src/events/index.js';
import { benchCore } from './bench-support.js';
import { accountClients, throughCore } from './orders.bench.js';

interface Start {
  readonly type: 'start';
  readonly databaseUrl: string;
  readonly fakeUrl: string;
  readonly accounts: number[];
  readonly ownerBase: number;
  readonly run: string;
  readonly fanOuts: number;
}

const start = await new Promise<Start>((resolve) => {
  process.once('message', (message) => resolve(message as Start));
});
const handle = await openPostgres(start.databaseUrl, { migrate: false });
const clock = systemClock;
const events = createInProcessEventBus({ clock });
const core = benchCore({
  db: handle.db,
  clock,
  clients: accountClients(handle.db, clock, start.fakeUrl),
  events,
});
await throughCore(core, start.accounts, start.ownerBase, `${start.run}w`, 1);
const go = new Promise<void>((resolve) => {
  process.once('message', () => resolve());
});
process.send?.({ type: 'ready' });
await go;
const startedAtMs = Date.now();
const measured = await throughCore(core, start.accounts, start.ownerBase, start.run, start.fanOuts);
const endedAtMs = Date.now();
process.send?.({
  type: 'done',
  orders: measured.orders,
  failed: measured.failed,
  startedAtMs,
  endedAtMs,
  ...(measured.firstError ? { firstError: measured.firstError } : {}),
});
await core.idle();
await core.close(0);
await events.close();
await handle.close();
process.disconnect();
