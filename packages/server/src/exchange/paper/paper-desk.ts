import type { Decimal } from 'decimal.js';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { createBatcher } from '../../common/batcher.js';
import { anyOf, tuplesIn, unnestRows } from '../../db/batch-sql.js';
import type { Database } from '../../db/database.js';
import {
  exchangeAccounts,
  type PaperOrderRow,
  type PaperPositionRow,
  paperFills,
  paperLeverages,
  paperOrders,
  paperPositions,
} from '../../db/schema/index.js';
import { ExchangeAdapterError } from '../exchange-client.js';
import type { PaperAccountState } from './paper.repository.js';
import type { PaperBalanceWriter } from './paper-balances.js';
import {
  type PaperFillSpec,
  type PaperRates,
  paperOrderValues,
  planPaperFill,
} from './paper-execution.js';

// The paper exchange's desk: the orders of many paper accounts that arrive together (a leader's
// fill copied to a thousand paper followers, the bots of one candle close) are read and filled
// in one transaction of a few statements, instead of a transaction of ten per order. The rule of
// a fill is the one of `paper-execution.ts`; the desk only shares the reads and the writes. One
// batch at a time per desk; the account rows are locked in id order, as one account's fill locks
// its row alone, so batches and single fills never wait on each other in a cycle.

/** An order that fills now: market, or a marketable-limit IOC capped at `spec.price`. */
export interface PaperDeskOrder {
  readonly accountId: number;
  readonly spec: PaperFillSpec;
  /** The feed's price before slippage. */
  readonly marketPrice: Decimal;
  /** The price the order fills at (slippage applied): an IOC beyond its cap does not fill. */
  readonly fillPrice: Decimal;
  readonly rates: PaperRates;
  readonly now: Date;
}

type DeskOutcome = { readonly order: PaperOrderRow } | { readonly error: unknown };

const orderKey = (accountId: number, clientOrderId: string) => `${accountId}|${clientOrderId}`;

/** What a batch's fills start from, read under the accounts' locks. */
interface DeskState {
  /** Each account's state as the batch's fills leave it. */
  readonly states: Map<number, { account: PaperAccountState; positions: PaperPositionRow[] }>;
  /** Orders already known by (account, client order id). */
  readonly known: Map<string, PaperOrderRow>;
  readonly leverages: Map<string, number>;
}

/** Locks the batch's accounts (in id order) and reads their orders, positions and leverages. */
async function readDeskState(tx: Database, items: readonly PaperDeskOrder[]): Promise<DeskState> {
  const ids = [...new Set(items.map((i) => i.accountId))].sort((a, b) => a - b);
  const accounts = await tx
    .select({
      id: exchangeAccounts.id,
      positionMode: exchangeAccounts.positionMode,
      defaultLeverage: exchangeAccounts.defaultLeverage,
      paperBalance: exchangeAccounts.paperBalance,
    })
    .from(exchangeAccounts)
    .where(anyOf(exchangeAccounts.id, ids))
    .orderBy(asc(exchangeAccounts.id))
    .for('update');
  const known = new Map(
    (
      await tx
        .select()
        .from(paperOrders)
        .where(
          tuplesIn(
            [paperOrders.accountId, paperOrders.clientOrderId],
            items.map((i) => [i.accountId, i.spec.clientOrderId]),
          ),
        )
    ).map((row) => [orderKey(row.accountId, row.clientOrderId), row]),
  );
  const held = await tx
    .select()
    .from(paperPositions)
    .where(anyOf(paperPositions.accountId, ids))
    .orderBy(asc(paperPositions.symbol), asc(paperPositions.side));
  const leverages = new Map(
    (
      await tx
        .select()
        .from(paperLeverages)
        .where(
          tuplesIn(
            [paperLeverages.accountId, paperLeverages.symbol],
            items.map((i) => [i.accountId, i.spec.symbol]),
          ),
        )
    ).map((row) => [`${row.accountId}|${row.symbol}`, row.leverage]),
  );
  const heldBy = new Map<number, PaperPositionRow[]>();
  for (const position of held) {
    const list = heldBy.get(position.accountId);
    if (list) list.push(position);
    else heldBy.set(position.accountId, [position]);
  }
  const states = new Map(
    accounts.map((a) => [
      a.id,
      {
        account: { ...a, paperBalance: a.paperBalance ?? '0' },
        positions: heldBy.get(a.id) ?? [],
      },
    ]),
  );
  return { states, known, leverages };
}

type Planned =
  | { readonly kind: 'known'; readonly key: string }
  | { readonly kind: 'new'; readonly key: string }
  | { readonly kind: 'error'; readonly error: unknown };

/** What a batch writes: its new orders and fills, the positions it moved and the balances. */
interface DeskPlan {
  readonly planned: Planned[];
  readonly newOrders: (typeof paperOrders.$inferInsert)[];
  readonly newFills: Map<string, Omit<typeof paperFills.$inferInsert, 'orderId'>>;
  readonly positionWrites: Map<string, PaperPositionRow & { gone: boolean }>;
  readonly balances: Map<number, { paperBalance: string; now: Date }>;
}

/**
 * Plans each item's fill in order (two orders of one account in a batch fill one after the
 * other, as they would one transaction after the other); a known order is answered as it is.
 */
function planDesk(items: readonly PaperDeskOrder[], state: DeskState): DeskPlan {
  const plan: DeskPlan = {
    planned: [],
    newOrders: [],
    newFills: new Map(),
    positionWrites: new Map(),
    balances: new Map(),
  };
  const inBatch = new Set<string>();
  for (const item of items) {
    const key = orderKey(item.accountId, item.spec.clientOrderId);
    if (state.known.has(key) || inBatch.has(key)) {
      plan.planned.push({ kind: 'known', key });
      continue;
    }
    const outcome = planItem(item, state, plan);
    if (outcome !== null) {
      plan.planned.push({ kind: 'error', error: outcome });
      continue;
    }
    inBatch.add(key);
    plan.planned.push({ kind: 'new', key });
  }
  return plan;
}

/** One item's fill added to `plan` (and its account's state moved); the error when it has none. */
function planItem(item: PaperDeskOrder, state: DeskState, plan: DeskPlan): unknown {
  const key = orderKey(item.accountId, item.spec.clientOrderId);
  const account = state.states.get(item.accountId);
  if (!account) return new Error(`Paper account ${item.accountId} does not exist`);
  const cap = item.spec.type === 'limit' ? item.spec.price : null;
  if (cap !== null) {
    const isBuy = item.spec.side === 'buy';
    if (isBuy ? item.fillPrice.gt(cap) : item.fillPrice.lt(cap)) {
      // Beyond its cap: the IOC expires unfilled.
      plan.newOrders.push({
        accountId: item.accountId,
        ...paperOrderValues(item.spec, item.now),
        status: 'canceled',
        filled: '0',
        fee: '0',
      });
      return null;
    }
  }
  let fill: ReturnType<typeof planPaperFill>;
  try {
    fill = planPaperFill(
      account.account,
      account.positions,
      state.leverages.get(`${item.accountId}|${item.spec.symbol}`),
      item.spec,
      item.marketPrice,
      item.rates,
      item.now,
    );
  } catch (error) {
    return error;
  }
  plan.newOrders.push({
    accountId: item.accountId,
    ...paperOrderValues(item.spec, item.now),
    ...fill.filled,
  });
  plan.newFills.set(key, { accountId: item.accountId, ...fill.fill });
  for (const position of fill.positions) {
    const row = { accountId: item.accountId, ...position };
    plan.positionWrites.set(`${item.accountId}|${row.symbol}|${row.side}`, row);
    account.positions = [
      ...account.positions.filter((p) => !(p.symbol === row.symbol && p.side === row.side)),
      ...(position.gone ? [] : [row]),
    ];
  }
  account.account = { ...account.account, paperBalance: fill.paperBalance };
  plan.balances.set(item.accountId, { paperBalance: fill.paperBalance, now: item.now });
  return null;
}

/** Writes a batch's plan: orders, fills, positions and balances, a statement each. */
async function writeDesk(
  tx: Database,
  paperBalances: PaperBalanceWriter,
  plan: DeskPlan,
  known: Map<string, PaperOrderRow>,
): Promise<void> {
  if (plan.newOrders.length > 0) {
    const inserted = await tx
      .insert(paperOrders)
      .select(unnestRows(paperOrders, plan.newOrders))
      .onConflictDoNothing()
      .returning();
    for (const row of inserted) known.set(orderKey(row.accountId, row.clientOrderId), row);
  }
  const fills = [...plan.newFills].map(([key, fill]) => {
    const order = known.get(key);
    if (!order) throw new ExchangeAdapterError('unknown_outcome', 'Order id collision');
    return { ...fill, orderId: order.id };
  });
  if (fills.length > 0) {
    await tx.insert(paperFills).select(unnestRows(paperFills, fills));
  }
  await writePositions(tx, [...plan.positionWrites.values()]);
  if (plan.balances.size > 0) {
    await paperBalances(
      tx,
      [...plan.balances].map(([accountId, b]) => ({
        accountId,
        paperBalance: b.paperBalance,
        at: b.now,
      })),
    );
  }
}

/** Positions a batch moved: closed ones deleted, the others upserted. */
async function writePositions(
  tx: Database,
  writes: readonly (PaperPositionRow & { gone: boolean })[],
): Promise<void> {
  const gone = writes.filter((w) => w.gone);
  if (gone.length > 0) {
    await tx.delete(paperPositions).where(
      tuplesIn(
        [paperPositions.accountId, paperPositions.symbol, paperPositions.side],
        gone.map((w) => [w.accountId, w.symbol, w.side]),
      ),
    );
  }
  const kept = writes.filter((w) => !w.gone).map(({ gone: _gone, ...row }) => row);
  if (kept.length === 0) return;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  await tx
    .insert(paperPositions)
    .select(unnestRows(paperPositions, kept))
    .onConflictDoUpdate({
      target: [paperPositions.accountId, paperPositions.symbol, paperPositions.side],
      set: {
        amount: excluded('amount'),
        entryPrice: excluded('entry_price'),
        leverage: excluded('leverage'),
        updatedAt: excluded('updated_at'),
      },
    });
}

/** Fills `items` in one transaction: one outcome per item, in order. */
async function fillMany(
  db: Database,
  paperBalances: PaperBalanceWriter,
  items: readonly PaperDeskOrder[],
): Promise<DeskOutcome[]> {
  return db.transaction(async (tx) => {
    const state = await readDeskState(tx, items);
    const plan = planDesk(items, state);
    await writeDesk(tx, paperBalances, plan, state.known);
    return plan.planned.map((p): DeskOutcome => {
      if (p.kind === 'error') return { error: p.error };
      const order = state.known.get(p.key);
      return order
        ? { order }
        : { error: new ExchangeAdapterError('unknown_outcome', 'Order id collision') };
    });
  });
}

/** Sets the leverage of each (account, symbol), and of its open position, in one transaction. */
async function setLeverages(db: Database, items: readonly PaperLeverage[]): Promise<void> {
  // One row per key (the last wins): an upsert may not touch one row twice.
  const rows = [...new Map(items.map((i) => [`${i.accountId}|${i.symbol}`, i])).values()];
  await db.transaction(async (tx) => {
    // The accounts are locked in id order, as a fill locks them: the two never wait in a cycle.
    await tx
      .select({ id: exchangeAccounts.id })
      .from(exchangeAccounts)
      .where(anyOf(exchangeAccounts.id, [...new Set(rows.map((r) => r.accountId))]))
      .orderBy(asc(exchangeAccounts.id))
      .for('update');
    await tx
      .insert(paperLeverages)
      .select(
        unnestRows(
          paperLeverages,
          rows.map((r) => ({ accountId: r.accountId, symbol: r.symbol, leverage: r.leverage })),
        ),
      )
      .onConflictDoUpdate({
        target: [paperLeverages.accountId, paperLeverages.symbol],
        set: { leverage: sql`excluded.leverage` },
      });
    await tx
      .update(paperPositions)
      .set({ leverage: sql`u.leverage` })
      .from(
        sql`unnest(${sql.param(rows.map((r) => r.accountId))}::integer[], ${sql.param(rows.map((r) => r.symbol))}::text[], ${sql.param(rows.map((r) => r.leverage))}::integer[]) as u(account_id, symbol, leverage)`,
      )
      .where(
        and(
          eq(paperPositions.accountId, sql`u.account_id`),
          eq(paperPositions.symbol, sql`u.symbol`),
        ),
      );
  });
}

export interface PaperLeverage {
  readonly accountId: number;
  readonly symbol: string;
  readonly leverage: number;
}

export function createPaperDesk(db: Database, paperBalances: PaperBalanceWriter) {
  const options = { maxSize: 500 };
  const restingCounts = createBatcher(
    async (keys: readonly { accountId: number; symbol: string }[]) => {
      const rows = await db
        .select({ accountId: paperOrders.accountId, symbol: paperOrders.symbol })
        .from(paperOrders)
        .where(
          and(
            tuplesIn(
              [paperOrders.accountId, paperOrders.symbol],
              keys.map((k) => [k.accountId, k.symbol]),
            ),
            eq(paperOrders.status, 'open'),
            ne(paperOrders.type, 'market'),
          ),
        );
      const counts = new Map<string, number>();
      for (const r of rows) {
        const key = `${r.accountId}|${r.symbol}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return keys.map((k) => counts.get(`${k.accountId}|${k.symbol}`) ?? 0);
    },
    options,
  );
  const filler = createBatcher(
    (items: readonly PaperDeskOrder[]) => fillMany(db, paperBalances, items),
    options,
  );
  const leverageSetter = createBatcher(async (items: readonly PaperLeverage[]) => {
    await setLeverages(db, items);
    return items.map(() => undefined);
  }, options);

  return {
    /** Whether the account has resting orders on the symbol (the matcher's work, else none). */
    hasResting: async (accountId: number, symbol: string) =>
      (await restingCounts.run({ accountId, symbol })) > 0,
    /** Sets an account's leverage on a symbol (with the others set together). */
    setLeverage: (leverage: PaperLeverage) => leverageSetter.run(leverage),
    /** Fills a market or IOC order (with the orders that arrive together); the order's row. */
    async fill(order: PaperDeskOrder): Promise<PaperOrderRow> {
      const outcome = await filler.run(order);
      if ('error' in outcome) throw outcome.error;
      return outcome.order;
    },
  };
}
export type PaperDesk = ReturnType<typeof createPaperDesk>;
