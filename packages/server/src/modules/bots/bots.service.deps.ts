// The bots service's answers, its 409 refusal and what it is built from (bots.service.ts).
import { BOT_MESSAGES, ERROR_CODES } from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { DomainError } from '../../common/errors.js';
import type { BotRow } from '../../db/schema/index.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { EventBus } from '../../events/index.js';
import type { OrderOwner, OwnerPosition } from '../../execution/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { BotControl } from './bot-control.js';
import type { BotsRepository } from './bots.repository.js';
import type { LiveChecks } from './live-checks.js';

export const BOT_ANSWERS = {
  created: 'Bot created successfully!',
  started: 'Bot started successfully',
  alreadyRunning: 'Bot is already running',
  stopped: 'Bot stopped successfully',
  restarted: 'Bot restarted successfully',
  notRunning: 'Bot is not running',
  deleted: 'Bot deleted successfully',
  notFound: 'Bot not found',
  accountInactive: 'Exchange account is inactive',
  engineFailed: 'The bot engine failed',
} as const;

/** A second bot on the same exchange account and symbol (HTTP 409, contracts botExistsError). */
export class BotAlreadyExists extends DomainError {
  constructor(existing: Pick<BotRow, 'id' | 'status'>) {
    super(409, ERROR_CODES.conflict, BOT_MESSAGES.alreadyExists, undefined, {
      success: false,
      details: BOT_MESSAGES.alreadyExistsDetails,
      suggestion: BOT_MESSAGES.alreadyExistsSuggestion,
      existing_bot: { id: existing.id, status: existing.status },
    });
  }
}

/** The bots' positions, from the execution core's book. */
export interface BotPositions {
  openPositionsOf(owners: readonly OrderOwner[]): Promise<OwnerPosition[]>;
}

/** What a bot's change writes: its row and its log entry, in one transaction. */
export interface BotWrites {
  readonly bots: BotsRepository;
  readonly operationLog: OperationLogWriter;
}

export interface BotsServiceDeps {
  /** Reads (and the engine-failure write made outside any other change). */
  readonly repo: BotsRepository;
  readonly writes: UnitOfWork<BotWrites>;
  readonly positions: BotPositions;
  readonly feed: MarketFeed;
  readonly control: BotControl;
  /** BotStatusChanged goes here (the websocket hub and the square listen). */
  readonly events: EventBus;
  readonly clock: Clock;
  /** Users' own strategies (the user-strategies service), chosen by catalogue id. */
  readonly customStrategies?: {
    ownedByCatalogId(
      userId: number,
      catalogId: number,
    ): Promise<{ type: string; name: string } | undefined>;
    /** The owner's rule sets, to name a bot that runs one. */
    catalogFor(userId: number): Promise<readonly { type: string; name: string }[]>;
  };
  /** Live against backtest (compares on request; the hourly pass keeps the square's). */
  readonly liveChecks?: Pick<LiveChecks, 'compare'>;
}
