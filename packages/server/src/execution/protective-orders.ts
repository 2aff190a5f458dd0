import { Decimal } from 'decimal.js';
import type { Clock } from '../common/clock.js';
import type { ExchangeAccountRow, ExecutionOrderRow } from '../db/schema/index.js';
import type { ExchangeClient } from '../exchange/exchange-client.js';
import type { AccountLanes } from './account-lanes.js';
import { clientOrderIdOf } from './client-order-id.js';
import type { ExecutionRepository } from './execution.repository.js';
import {
  type AccountClients,
  ExecutionError,
  type OwnerPosition,
  type PositionRef,
  type Settlement,
} from './execution.types.js';
import { isFinal, MISSING_AFTER_MS } from './order-states.js';

/**
 * A protective order a lookup did not find is gone only once its request can no longer be taken
 * and the venue has had time to show it (order-states.ts): else a second one could duplicate it.
 */
function isProvenMissing(intent: ExecutionOrderRow): boolean {
  if (intent.sendExpiresAt === null) return true;
  return Date.now() > intent.sendExpiresAt.getTime() + MISSING_AFTER_MS;
}

import {
  flatPosition,
  type SettleItem,
  type SettleOutcome,
  toOwnerPosition,
} from './settlement.js';

// Stop-loss and take-profit as resting reduce-only trigger orders at the exchange (the paper
// exchange rests and triggers them too): placed for an owner's position and verified among the
// open orders, watched (a filled one settles the position; a missing one is placed again), and
// cancelled before the owner closes by itself.

export interface ProtectRequest extends PositionRef {
  /** The owner's key for this protection: the orders' keys are key + sl|tp + p{attempt}. */
  readonly key: string;
  readonly stopLoss: number | null;
  readonly takeProfit: number | null;
}

export interface MoveStopRequest extends PositionRef {
  /** The key of this move: the new order's key is key + sl + p{attempt}. */
  readonly key: string;
  readonly stopLoss: number;
}

const KINDS = [
  { kind: 'stop_loss', code: 'sl', type: 'stop_market' },
  { kind: 'take_profit', code: 'tp', type: 'take_profit_market' },
] as const;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What the protective orders use of the core. */
interface ProtectiveDeps {
  repo: ExecutionRepository;
  clock: Clock;
  clients: AccountClients;
  lanes: AccountLanes;
  accountOf(accountId: number): Promise<ExchangeAccountRow>;
  drive(
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
  ): Promise<SettleOutcome>;
  settle(item: Omit<SettleItem, 'trades'>): Promise<SettleOutcome>;
}

/** Places one protective order (two tries), verified among the open orders: its exchange id. */
async function placeOne(
  deps: Pick<ProtectiveDeps, 'repo' | 'clock' | 'drive'>,
  account: ExchangeAccountRow,
  client: ExchangeClient,
  request: PositionRef & { readonly key: string },
  position: OwnerPosition,
  which: (typeof KINDS)[number],
  level: number,
): Promise<string> {
  const size = new Decimal(position.size);
  for (let attempt = 1; attempt <= 2; attempt++) {
    const key = `${request.key}${which.code}p${attempt}`;
    try {
      const now = deps.clock.now();
      const [row] = await deps.repo.insertIntents([
        {
          accountId: account.id,
          symbol: request.symbol,
          ownerKind: request.owner.kind,
          ownerId: request.owner.id,
          idempotencyKey: key,
          clientOrderId: clientOrderIdOf(request.owner, key),
          action: which.kind,
          side: size.isNegative() ? 'buy' : 'sell',
          type: which.type,
          amount: size.abs().toString(),
          triggerPrice: String(level),
          reduceOnly: true,
          positionSide:
            account.positionMode === 'hedge' ? (size.isNegative() ? 'short' : 'long') : null,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      const outcome = await deps.drive(account, client, row as ExecutionOrderRow);
      const placed = outcome.intent;
      // Acknowledged by the venue: it exists, whether or not its book shows it yet.
      if (placed.exchangeOrderId !== null && !isFinal(placed.status)) {
        return placed.exchangeOrderId;
      }
      const found = await client.fetchOrderByClientId(request.symbol, placed.clientOrderId);
      if (found && found.status === 'open') return found.id;
      // In doubt and not proven absent: a second order could be a duplicate. Not sent.
      if (!isFinal(placed.status)) break;
    } catch (error) {
      // Only a refusal (or an expiry proven by lookups) shows the first order does not exist.
      if (!(error instanceof ExecutionError) || error.kind !== 'rejected') {
        throw new ExecutionError(
          'unprotected',
          `position unprotected: ${which.kind} order in doubt: ${errorText(error)}`,
          { cause: error },
        );
      }
      if (attempt === 2) {
        throw new ExecutionError(
          'unprotected',
          `position unprotected: ${which.kind} order failed: ${errorText(error)}`,
          { cause: error },
        );
      }
    }
  }
  throw new ExecutionError(
    'unprotected',
    `position unprotected: ${which.kind} order not found at the exchange`,
  );
}

/**
 * Whether a protective order filled at the exchange: then its fill is settled (the position
 * closes, the owner's hook runs) and the other order cancelled; a protective order missing
 * while the position remains is placed again under `key`. Answers the fill's settlement.
 */
async function watchIn(
  deps: ProtectiveDeps & {
    positionOf(ref: PositionRef): Promise<OwnerPosition>;
    cancelOrders(
      account: ExchangeAccountRow,
      ref: PositionRef,
      ids: readonly (string | null)[],
    ): Promise<void>;
    cancelIn(account: ExchangeAccountRow, ref: PositionRef): Promise<void>;
    protectIn(account: ExchangeAccountRow, request: ProtectRequest): Promise<OwnerPosition>;
  },
  ref: PositionRef,
  key: string,
): Promise<Settlement | null> {
  const { repo, positionOf, cancelOrders, cancelIn, protectIn } = deps;
  const account = await deps.accountOf(ref.accountId);
  return deps.lanes.run(account.id, async () => {
    const position = await positionOf(ref);
    if (!position.stopLossOrderId && !position.takeProfitOrderId) return null;
    const client = deps.clients(account);
    const openIds = new Set((await client.fetchOpenOrders(ref.symbol)).map((o) => o.id));
    /** Protective orders the open list leaves out but that are not proven gone. */
    const stillThere = new Set<string>();
    for (const id of [position.stopLossOrderId, position.takeProfitOrderId]) {
      if (!id || openIds.has(id)) continue;
      const intent = await repo.intentByExchangeOrderId(account.id, id);
      const order = intent
        ? await client.fetchOrderByClientId(ref.symbol, intent.clientOrderId)
        : null;
      // Absent from the open list, but the venue shows it open by its client id (its book
      // lags), or it is too recent for a miss to prove anything: not missing.
      if (order?.status === 'open' || (intent && !order && !isProvenMissing(intent))) {
        stillThere.add(id);
        continue;
      }
      if (intent && order && order.filled > 0) {
        const { settlement } = await deps.settle({ account, intent, order });
        // The other protective order goes; what is left of the position is protected anew.
        const others = [position.stopLossOrderId, position.takeProfitOrderId].filter(
          (other) => other !== id,
        );
        await cancelOrders(account, ref, others);
        const after = await positionOf(ref);
        if (!new Decimal(after.size).isZero()) {
          await cancelIn(account, ref);
          await protectIn(account, {
            ...ref,
            key,
            stopLoss: after.stopLoss === null ? null : Number(after.stopLoss),
            takeProfit: after.takeProfit === null ? null : Number(after.takeProfit),
          });
        }
        return settlement;
      }
    }
    const isMissing = [position.stopLossOrderId, position.takeProfitOrderId].some(
      (id) => id !== null && !openIds.has(id) && !stillThere.has(id),
    );
    if (isMissing) {
      await cancelIn(account, ref);
      await protectIn(account, {
        ...ref,
        key,
        stopLoss: position.stopLoss === null ? null : Number(position.stopLoss),
        takeProfit: position.takeProfit === null ? null : Number(position.takeProfit),
      });
    }
    return null;
  });
}

export function createProtectiveOrders(deps: ProtectiveDeps) {
  const { repo, clock } = deps;

  const positionOf = async (ref: PositionRef) => {
    const row = await repo.positionOf(ref);
    return row ? toOwnerPosition(row) : flatPosition(ref);
  };

  async function protectIn(account: ExchangeAccountRow, request: ProtectRequest) {
    const client = deps.clients(account);
    const position = await positionOf(request);
    if (new Decimal(position.size).isZero()) return position;
    const ids: { stopLossOrderId: string | null; takeProfitOrderId: string | null } = {
      stopLossOrderId: null,
      takeProfitOrderId: null,
    };
    for (const which of KINDS) {
      const level = which.kind === 'stop_loss' ? request.stopLoss : request.takeProfit;
      if (level === null) continue;
      const id = await placeOne(deps, account, client, request, position, which, level);
      if (which.kind === 'stop_loss') ids.stopLossOrderId = id;
      else ids.takeProfitOrderId = id;
    }
    const row = await repo.setProtective(request, {
      stopLoss: request.stopLoss === null ? null : String(request.stopLoss),
      takeProfit: request.takeProfit === null ? null : String(request.takeProfit),
      ...ids,
      updatedAt: clock.now(),
    });
    return row ? toOwnerPosition(row) : position;
  }

  /** Cancels orders at the exchange (gone already is as good as cancelled) and their intents. */
  async function cancelOrders(
    account: ExchangeAccountRow,
    ref: PositionRef,
    ids: readonly (string | null)[],
  ): Promise<void> {
    const client = deps.clients(account);
    for (const id of ids) {
      if (id === null) continue;
      await client.cancelOrder(ref.symbol, id).catch(() => undefined);
      const intent = await repo.intentByExchangeOrderId(account.id, id);
      if (intent?.status === 'accepted') {
        await repo.updateIntent(intent.id, { status: 'canceled' }, clock.now());
      }
    }
  }

  async function cancelIn(account: ExchangeAccountRow, ref: PositionRef): Promise<void> {
    const position = await positionOf(ref);
    if (position.stopLossOrderId === null && position.takeProfitOrderId === null) return;
    await cancelOrders(account, ref, [position.stopLossOrderId, position.takeProfitOrderId]);
    await repo.setProtective(ref, {
      stopLoss: position.stopLoss,
      takeProfit: position.takeProfit,
      stopLossOrderId: null,
      takeProfitOrderId: null,
      updatedAt: clock.now(),
    });
  }

  /**
   * Moves the stop-loss to `stopLoss`: the new order is placed (and verified) before the old one
   * is cancelled, so the position is never without a stop; the take-profit stays.
   */
  async function moveStopIn(account: ExchangeAccountRow, request: MoveStopRequest) {
    const position = await positionOf(request);
    const old = position.stopLossOrderId;
    if (new Decimal(position.size).isZero() || old === null) return position;
    const client = deps.clients(account);
    const stop = KINDS[0];
    const id = await placeOne(deps, account, client, request, position, stop, request.stopLoss);
    await cancelOrders(account, request, [old]);
    const row = await repo.setProtective(request, {
      stopLoss: String(request.stopLoss),
      takeProfit: position.takeProfit,
      stopLossOrderId: id,
      takeProfitOrderId: position.takeProfitOrderId,
      updatedAt: clock.now(),
    });
    return row ? toOwnerPosition(row) : position;
  }

  return {
    /**
     * Moves a resting stop-loss (a trailing stop): new order first, then the old one cancelled.
     * A position without a stop order is left as it is. Throws ExecutionError('unprotected')
     * when the new order cannot be placed; the old one then still stands.
     */
    async moveStop(request: MoveStopRequest): Promise<OwnerPosition> {
      const account = await deps.accountOf(request.accountId);
      return deps.lanes.run(account.id, () => moveStopIn(account, request));
    },

    /**
     * Places reduce-only stop-loss / take-profit orders for the owner's whole position and
     * verifies them at the exchange (one more try each). Throws ExecutionError('unprotected').
     */
    async protect(request: ProtectRequest): Promise<OwnerPosition> {
      const account = await deps.accountOf(request.accountId);
      return deps.lanes.run(account.id, () => protectIn(account, request));
    },

    /** Cancels the owner's protective orders (before it closes the position itself). */
    async cancelProtective(ref: PositionRef): Promise<void> {
      const account = await deps.accountOf(ref.accountId);
      await deps.lanes.run(account.id, () => cancelIn(account, ref));
    },

    /** Whether a protective order filled at the exchange (see watchIn). */
    watchProtective: (ref: PositionRef, key: string): Promise<Settlement | null> =>
      watchIn({ ...deps, positionOf, cancelOrders, cancelIn, protectIn }, ref, key),
  };
}
