// The platform's events: what happened, for whoever listens (the bot engine, copy trading, the
// websocket hub, the square's metrics). Publishers never call their listeners directly.

/** Who an order or a position belongs to on an exchange account. */
export type OrderOwnerKind = 'bot' | 'copy' | 'webhook' | 'manual';
export interface OrderOwner {
  readonly kind: OrderOwnerKind;
  /** The bot, copy relation or webhook configuration id; the user id for `manual`. */
  readonly id: number;
}

export interface EventPayloads {
  /** An order of ours filled (wholly or partly) on an exchange account. */
  OrderFilled: {
    readonly accountId: number;
    readonly userId: number;
    readonly symbol: string;
    readonly owner: OrderOwner;
    readonly clientOrderId: string;
    readonly exchangeOrderId: string;
    readonly side: 'buy' | 'sell';
    /** Base-asset quantity filled. */
    readonly amount: number;
    readonly price: number;
    /** Fee paid, in quote (USDT). */
    readonly fee: number;
    readonly reduceOnly: boolean;
    /** The resting stop-loss or take-profit order that triggered (absent on older events). */
    readonly trigger?: 'stop_loss' | 'take_profit' | null;
    readonly filledAtMs: number;
  };
  /** An owner's position on an account and symbol changed (after a fill or a reconcile). */
  PositionChanged: {
    readonly accountId: number;
    readonly userId: number;
    readonly symbol: string;
    readonly owner: OrderOwner;
    /** Signed base-asset quantity: positive long, negative short, 0 flat. */
    readonly size: number;
    /** Average entry price; null when flat. */
    readonly entryPrice: number | null;
    readonly changedAtMs: number;
  };
  BotStatusChanged: {
    readonly botId: number;
    readonly userId: number;
    readonly status: 'created' | 'stopped' | 'running' | 'error';
    readonly error: string | null;
    /** The bot's symbol (for the notification's words; absent on older events). */
    readonly symbol?: string;
  };
  /** An exchange account's balance was read (a snapshot). */
  BalanceChanged: {
    readonly accountId: number;
    readonly userId: number;
    readonly total: number;
    readonly free: number;
    readonly used: number;
    readonly atMs: number;
  };
  /** A user's platform-coin balance moved (the wallet's ledger). */
  CoinBalanceChanged: {
    readonly userId: number;
    /** The new balance, a decimal string. */
    readonly balance: string;
    readonly transactionId: number;
  };
  /** A strategy's share settings changed (the square's websocket hub drops hidden streams). */
  StrategySharingChanged: {
    readonly accountId: number;
    readonly isPublic: boolean;
    readonly showTrades: boolean;
    readonly showPositions: boolean;
  };
  /** The square's metrics worker recomputed a strategy's figures. */
  StrategyStatisticsChanged: {
    readonly accountId: number;
    readonly totalPnlPercent: number;
    readonly dailyPnlPercent: number;
    readonly maxDrawdown: number;
    readonly balance: number;
    readonly daysOfHistory: number;
    readonly isNew: boolean;
  };
  /**
   * An exchange account's risk state changed: its user's halt or resume, or a breach of its
   * daily loss or trailing drawdown limit (notifications tell the user).
   */
  RiskStateChanged: {
    readonly accountId: number;
    readonly userId: number;
    readonly state: 'active' | 'reducing' | 'halted';
    readonly previousState: 'active' | 'reducing' | 'halted';
    /** user | daily_loss | trailing_drawdown; null on a resume. */
    readonly reason: 'user' | 'daily_loss' | 'trailing_drawdown' | null;
    /** The equity that tripped a breach (decimal string), else null. */
    readonly equity: string | null;
    readonly atMs: number;
  };
  /** A copy relation started, stopped, paused or resumed (written with the change). */
  CopyStatusChanged: {
    readonly relationId: number;
    /** The follower. */
    readonly userId: number;
    readonly leaderAccountId: number;
    readonly status: 'started' | 'stopped' | 'paused' | 'resumed';
    /** Why it stopped or paused (user, max_loss, leader_drawdown, risk_halted, …), else null. */
    readonly reason: string | null;
    readonly atMs: number;
  };
  /** A deposit or withdrawal request changed status (written with the change by the ledger). */
  WalletRequestChanged: {
    readonly userId: number;
    readonly transactionId: number;
    readonly kind: 'deposit' | 'withdrawal';
    /** The new status: processing, completed, failed… */
    readonly status: string;
    /** Decimal string. */
    readonly amount: string;
  };
  /** A user's unread notification count changed (the notification sockets push it). */
  NotificationsChanged: {
    readonly userId: number;
    readonly unread: number;
  };
  /** A webhook signal ended failed or refused (written with the signal's final state). */
  WebhookSignalFailed: {
    readonly userId: number;
    readonly configId: number;
    readonly configName: string;
    readonly signalId: number;
    readonly status: 'failed' | 'refused';
    readonly reason: string | null;
  };
  /**
   * A webhook signal was accepted (stored as validated): it wakes the process holding the
   * configuration's lease, wherever the receiver ran. Not written to the outbox: a lost wake-up
   * is made good by the executors' slow look at the queue.
   */
  WebhookSignalAccepted: {
    readonly configId: number;
    readonly signalId: number;
  };
  AnnouncementPublished: {
    readonly announcementId: number;
    readonly title: string;
    readonly type: 'normal' | 'important' | 'maintenance';
  };
}

export type EventType = keyof EventPayloads;

export interface BusEvent<K extends EventType = EventType> {
  /** Unique per event: a subscriber that may see one twice (Redis, retries) drops repeats. */
  readonly id: string;
  readonly type: K;
  /** ISO time of publication. */
  readonly at: string;
  readonly payload: EventPayloads[K];
}

export type EventHandler<K extends EventType> = (event: BusEvent<K>) => void | Promise<void>;

export interface EventBus {
  /**
   * Publishes one event; `id` defaults to a random UUID (give a deterministic one where a repeat
   * publication must be recognisable). Resolves once the event is handed to the transport; the
   * handlers run after, never inside the publisher's call.
   */
  publish<K extends EventType>(type: K, payload: EventPayloads[K], id?: string): Promise<void>;
  /** Calls `handler` for every later event of `type`; answers the unsubscribe function. */
  subscribe<K extends EventType>(type: K, handler: EventHandler<K>): () => void;
  /** Stops delivery and releases the transport. */
  close(): Promise<void>;
}

export interface EventBusLogger {
  error(details: object, message: string): void;
}
