// The execution core's reads and writes shared by the intents that arrive together: each is a
// batcher, so a fan-out to many accounts asks the database once per batch, not once per intent.
import { createBatcher } from '../common/batcher.js';
import type { Clock } from '../common/clock.js';
import type { ExecutionOrderRow } from '../db/schema/index.js';
import type { ExecutionRepository, IntentKey, SymbolKey } from './execution.repository.js';
import type { LeaseFence, PositionRef } from './execution.types.js';
import { toOwnerPosition } from './settlement.js';

// Keys that match a batch's answers to its callers (a map, not a search per caller).
const symbolKeyOf = (accountId: number, text: string) => `${accountId}|${text}`;
const intentKeyOf = (accountId: number, kind: string, ownerId: number, key: string) =>
  `${accountId}|${kind}|${ownerId}|${key}`;

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The core's batched loaders and writers; `sendDeadlineMs` bounds a claim's send window. */
export function createCoreLoaders(repo: ExecutionRepository, clock: Clock, sendDeadlineMs: number) {
  const accountLoader = createBatcher(
    async (ids: readonly number[]) => {
      const rows = new Map((await repo.accounts(ids)).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id));
    },
    { maxSize: 1000 },
  );
  const keyLoader = createBatcher(
    async (keys: readonly IntentKey[]) => {
      const byKey = groupBy(await repo.intentsByKeys(keys), (r) =>
        intentKeyOf(r.accountId, r.ownerKind, r.ownerId, r.idempotencyKey),
      );
      return keys.map(
        (k) => byKey.get(intentKeyOf(k.accountId, k.owner.kind, k.owner.id, k.key)) ?? [],
      );
    },
    { maxSize: 1000 },
  );
  const bookLoader = createBatcher(
    async (keys: readonly SymbolKey[]) => {
      const byKey = groupBy((await repo.positionsOn(keys)).map(toOwnerPosition), (p) =>
        symbolKeyOf(p.accountId, p.symbol),
      );
      return keys.map((k) => byKey.get(symbolKeyOf(k.accountId, k.symbol)) ?? []);
    },
    { maxSize: 1000 },
  );
  const intentWriter = createBatcher(
    async (groups: readonly (readonly Parameters<typeof repo.insertIntents>[0][number][])[]) => {
      const rows = new Map(
        (await repo.insertIntents(groups.flat())).map((r) => [
          symbolKeyOf(r.accountId, r.clientOrderId),
          r,
        ]),
      );
      return groups.map((group) =>
        group.map(
          (want) => rows.get(symbolKeyOf(want.accountId, want.clientOrderId)) as ExecutionOrderRow,
        ),
      );
    },
    { maxSize: 500 },
  );
  // The risk gate's view, read fresh for each intent; intents written together share the read.
  const riskLoader = createBatcher(
    async (ids: readonly number[]) => {
      const rows = new Map(
        (await repo.risksOf(ids)).map(({ accountId, ...risk }) => [accountId, risk]),
      );
      return ids.map((id) => rows.get(id) ?? null);
    },
    { maxSize: 1000 },
  );
  const leverageLoader = createBatcher(
    async (keys: readonly SymbolKey[]) => {
      const rows = new Map(
        (await repo.leverages(keys)).map((r) => [symbolKeyOf(r.accountId, r.symbol), r.leverage]),
      );
      return keys.map((k) => rows.get(symbolKeyOf(k.accountId, k.symbol)));
    },
    { maxSize: 1000 },
  );

  const liveLoader = createBatcher(
    async (refs: readonly PositionRef[]) => {
      const byRef = groupBy(
        await repo.liveIntentsOn(refs),
        (r) => `${r.accountId}|${r.symbol}|${r.ownerKind}|${r.ownerId}`,
      );
      return refs.map(
        (r) => byRef.get(`${r.accountId}|${r.symbol}|${r.owner.kind}|${r.owner.id}`) ?? [],
      );
    },
    { maxSize: 1000 },
  );

  const leverageWriter = createBatcher(
    async (
      rows: readonly { accountId: number; symbol: string; leverage: number; setAt: Date }[],
    ) => {
      await repo.saveLeverages(rows);
      return rows.map(() => undefined);
    },
    { maxSize: 1000 },
  );

  // The last step before an order leaves: the intent moves from pending to on its way, unless
  // another process (a new lease holder's reconcile) has failed or settled it meanwhile — then a
  // process that was frozen while holding it sends nothing.
  const claimer = createBatcher(
    async (claims: readonly { readonly id: number; readonly fence?: LeaseFence | undefined }[]) => {
      // Wall-clock time: the venue's clock judges the request, whatever the core's clock says.
      const claimedAtMs = Date.now();
      const expiresAt = new Date(claimedAtMs + sendDeadlineMs);
      const claimed = new Set(await repo.claimForSending(claims, clock.now(), expiresAt));
      return claims.map((c) =>
        claimed.has(c.id) ? { claimedAtMs, expiresAtMs: expiresAt.getTime() } : null,
      );
    },
    { maxSize: 1000 },
  );

  return {
    accountLoader,
    keyLoader,
    bookLoader,
    intentWriter,
    riskLoader,
    leverageLoader,
    liveLoader,
    leverageWriter,
    claimer,
  };
}
export type CoreLoaders = ReturnType<typeof createCoreLoaders>;
