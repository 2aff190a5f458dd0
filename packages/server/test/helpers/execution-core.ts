import { createOutbox } from '../../src/events/outbox.js';
import {
  createAccountLanes,
  createExecutionCore,
  type ExecutionCoreDeps,
} from '../../src/execution/index.js';

/** The execution core as the composition root builds it, with lanes and an outbox of its own. */
export function testExecutionCore(
  deps: Omit<ExecutionCoreDeps, 'lanes' | 'outbox'> & Partial<ExecutionCoreDeps>,
) {
  return createExecutionCore({
    lanes: createAccountLanes(),
    outbox: createOutbox({ db: deps.db, clock: deps.clock }),
    ...deps,
  });
}
