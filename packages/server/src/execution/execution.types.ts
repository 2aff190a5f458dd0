import type { RiskRefusalReason } from '@quantsquare/contracts';
import type { AppliedFill, Sizing } from '@quantsquare/engine';
import type { LeaseFence } from '../common/leases.js';
import type { Database } from '../db/database.js';
import type { ExchangeAccountRow, ExecutionOrderRow } from '../db/schema/index.js';
import type { OrderOwner } from '../events/event-bus.types.js';
import type { ExchangeClient, ExchangeOrder } from '../exchange/exchange-client.js';

export type { OrderOwner, OrderOwnerKind } from '../events/event-bus.types.js';
export type { LeaseFence };

/** How much an intent trades, in base-asset quantity. */
export type IntentSize =
  /** Buy (positive) or sell (negative) this much for the owner. */
  | { readonly kind: 'delta'; readonly amount: number }
  /** Trade until the owner holds this signed position (positive long, negative short, 0 flat). */
  | { readonly kind: 'target'; readonly amount: number }
  /** Close the owner's whole position (reduce-only where the account's net allows it). */
  | { readonly kind: 'close' };

export type IntentPricing =
  | { readonly type: 'market' }
  /**
   * A marketable limit order, immediate-or-cancel: fills at once at `priceCap` or better (a buy
   * never above it, a sell never below), the rest is cancelled.
   */
  | { readonly type: 'ioc'; readonly priceCap: number };

export interface OrderIntent {
  readonly accountId: number;
  readonly symbol: string;
  readonly owner: OrderOwner;
  /**
   * The owner's idempotency key (a bot: candle + action; a copy relation: leader change +
   * symbol; a webhook: signal id). The same key is the same order: repeating it answers what the
   * first submission did, and never sends a second order.
   */
  readonly key: string;
  readonly size: IntentSize;
  /** Default: market. */
  readonly pricing?: IntentPricing;
  /** The owner's name for what the order does, stored and shown (e.g. open_long). */
  readonly action: string;
  /** The price the owner expects: checks the venue's minimum notional before sending. */
  readonly referencePrice?: number;
  /**
   * The leverage the owner trades at (a webhook configuration's own); set on the exchange before
   * an order that may open when the account's symbol is at another. Default: the account's
   * default_leverage.
   */
  readonly leverage?: number;
  /**
   * The lease its driver holds on the owner (`leases.fenceOf`): the order is claimed for sending
   * only while exactly this lease (holder and epoch) is current and unexpired, so a worker that
   * froze and lost it can no longer send. Omitted: not fenced (tests, manual orders).
   */
  readonly fence?: LeaseFence;
}

/** An owner's position as the book holds it (decimal strings, as stored). */
export interface OwnerPosition {
  readonly id: number;
  readonly accountId: number;
  readonly symbol: string;
  readonly owner: OrderOwner;
  /** Signed base-asset quantity: positive long, negative short, "0" flat. */
  readonly size: string;
  readonly entryPrice: string;
  readonly entryFee: string;
  readonly realizedPnl: string;
  readonly openedAt: Date | null;
  readonly stopLoss: string | null;
  readonly takeProfit: string | null;
  readonly stopLossOrderId: string | null;
  readonly takeProfitOrderId: string | null;
}

export interface PositionRef {
  readonly accountId: number;
  readonly symbol: string;
  readonly owner: OrderOwner;
}

/** A fill applied to the book, in one transaction with the intent's new status. */
export interface Settlement {
  readonly account: ExchangeAccountRow;
  readonly intent: ExecutionOrderRow;
  readonly order: ExchangeOrder;
  /** What filled with this settlement (base asset, positive), at what price, for what fee. */
  readonly filled: string;
  readonly price: string;
  readonly fee: string;
  /** The fill on the owner's position (closed part, realised P&L net of fees, …). */
  readonly applied: AppliedFill;
  readonly before: OwnerPosition;
  readonly after: OwnerPosition;
  /** When the fill happened (the exchange's time when it says, else now). */
  readonly filledAt: Date;
}

/**
 * Runs inside the settlement's transaction (the owner's own records of a fill, e.g. a bot's
 * trade row and statistics): all or nothing with the book.
 */
export type SettlementHook = (tx: Database, settlement: Settlement) => Promise<void>;

export type IntentResult =
  /** Filled, wholly or partly (an IOC may fill less than asked). */
  | { readonly status: 'filled'; readonly settlement: Settlement; readonly legs: number }
  /** Accepted but nothing filled (an IOC beyond its cap). */
  | {
      readonly status: 'not_filled';
      readonly intent: ExecutionOrderRow | null;
      readonly position: OwnerPosition;
    }
  /** This key was executed before: its stored outcome (nothing sent, nothing applied again). */
  | {
      readonly status: 'done';
      readonly intent: ExecutionOrderRow;
      readonly position: OwnerPosition;
    }
  /**
   * Sent and not final yet (acknowledged without a fill, or in doubt) when the submit stopped
   * following it: the core's follower drives it on, its fills settle through the owner's hook
   * and events. The driver waits for it; it never sends the decision again.
   */
  | {
      readonly status: 'in_flight';
      readonly intent: ExecutionOrderRow;
      readonly position: OwnerPosition;
    }
  /** Nothing to do: the target is held already, or there is nothing to close. */
  | { readonly status: 'noop'; readonly position: OwnerPosition }
  /** Below the venue's minimum amount or notional: not sent. */
  | { readonly status: 'skipped'; readonly sizing: Extract<Sizing, { ok: false }> };

export type ExecutionErrorKind =
  /** The exchange refused the order (size, funds, key, …): it does not exist. */
  | 'rejected'
  /** The order may exist: reconcile looks it up by client order id; never resend blindly. */
  | 'unknown_outcome'
  /** Protective orders could not be placed and verified: the position is unprotected. */
  | 'unprotected'
  /**
   * The driver's lease on the owner is no longer current (another worker took it over): nothing
   * was sent; the new holder decides. The driver stops acting on the owner.
   */
  | 'fenced'
  /** The account's risk gate refused an opening: it is halted or reducing. Nothing was written. */
  | 'risk_halted'
  /** The account's risk gate refused an opening beyond a limit (or on a bad price). */
  | 'risk_limit';

/** A failure of one intent; `cause` holds the exchange adapter's error where there is one. */
export class ExecutionError extends Error {
  override readonly name = 'ExecutionError';
  constructor(
    readonly kind: ExecutionErrorKind,
    message: string,
    options?: { cause?: unknown; reason?: RiskRefusalReason },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options?.reason ?? null;
  }
  /** A risk refusal's reason (null for other kinds). */
  readonly reason: RiskRefusalReason | null;
}

/** An account's client (ccxt or paper), built from its row; cached per account version. */
export type AccountClients = (account: ExchangeAccountRow) => ExchangeClient;

/** What reconciling an owner's unsettled intents found, one entry per intent. */
export type IntentReconciliation =
  | {
      readonly outcome: 'settled';
      readonly intent: ExecutionOrderRow;
      readonly settlement: Settlement | null;
    }
  /** Still live at the venue (or not yet proven missing): the follower drives it on. */
  | { readonly outcome: 'in_flight'; readonly intent: ExecutionOrderRow }
  /** Never reached the venue (never sent, or not found once its request had expired). */
  | { readonly outcome: 'never_sent'; readonly intent: ExecutionOrderRow };

/** An account and symbol whose owners' sum differs from the exchange's position. */
export interface PositionMismatch {
  readonly account: ExchangeAccountRow;
  readonly symbol: string;
  /** Signed net size per the book (all owners). */
  readonly bookSize: number;
  /** Signed net size at the exchange. */
  readonly exchangeSize: number;
  readonly owners: readonly { readonly owner: OrderOwner; readonly size: number }[];
}
