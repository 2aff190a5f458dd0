import { createLeases } from '../../src/common/leases.js';
import { createInProcessEventBus, type EventBus } from '../../src/events/index.js';
import type { AccountClients } from '../../src/execution/index.js';
import { createOperationLogRepository } from '../../src/modules/operation-log/operation-log.repository.js';
import { createOperationLog } from '../../src/modules/operation-log/operation-log.service.js';
import { createUserStrategiesRepository } from '../../src/modules/user-strategies/user-strategies.repository.js';
import { compiledForBot } from '../../src/modules/user-strategies/user-strategies.service.js';
import {
  type BotEngine,
  type BotEngineDeps,
  createBotEngine,
} from '../../src/workers/bot-engine/index.js';
import { testExecutionCore } from './execution-core.js';

/**
 * A bot engine on an execution core of its own, as the composition root wires one (main.ts
 * builds one core for every driver): for tests that run an engine alone. Its `stop` also closes
 * the core (live orders settle first), as a process shutting down does.
 */
export function createBotEngineWithCore(
  deps: Omit<BotEngineDeps, 'execution' | 'leases' | 'writeLog' | 'ruleSets'> &
    Partial<Pick<BotEngineDeps, 'leases' | 'writeLog' | 'ruleSets'>> & {
      readonly clients: AccountClients;
      readonly events?: EventBus;
    },
): BotEngine {
  const { clients, events, ...rest } = deps;
  const execution = testExecutionCore({
    db: deps.db,
    clock: deps.clock,
    clients,
    events: events ?? createInProcessEventBus({ clock: deps.clock }),
  });
  const operationLog = createOperationLog({
    repo: createOperationLogRepository(deps.db),
    clock: deps.clock,
  });
  const engine = createBotEngine({
    ...rest,
    execution,
    leases: deps.leases ?? createLeases({ db: deps.db }),
    writeLog: deps.writeLog ?? ((entry) => operationLog.record(entry)),
    ruleSets: deps.ruleSets ?? ruleSetsOn(deps.db),
  });
  return {
    ...engine,
    async stop() {
      await engine.stop();
      await execution.close();
    },
  };
}

/** The users' rule sets as the composition root gives them to a bot engine, on `db`. */
export function ruleSetsOn(db: BotEngineDeps['db']): BotEngineDeps['ruleSets'] {
  const repo = createUserStrategiesRepository(db);
  return { compiledForBot: (type) => compiledForBot(repo, type) };
}

/** The operation-log writer the composition root gives a bot engine, on `db`. */
export function operationLogWriter(
  db: BotEngineDeps['db'],
  clock: BotEngineDeps['clock'],
): BotEngineDeps['writeLog'] {
  const operationLog = createOperationLog({ repo: createOperationLogRepository(db), clock });
  return (entry) => operationLog.record(entry);
}
