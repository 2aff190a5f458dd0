// The accounts module's services for tests: the clients and the event bus the composition root
// passes in production are built here from a client factory unless the test passes its own.
import { createInProcessEventBus } from '../../src/events/index.js';
import { type AccountClients, createAccountClients } from '../../src/exchange/account-clients.js';
import type { ExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import {
  type AccountServicesDeps,
  createAccountServices,
} from '../../src/modules/accounts/account-services.js';

export type TestAccountServicesDeps = Omit<AccountServicesDeps, 'clientFor' | 'events'> & {
  factory: ExchangeClientFactory;
  clientFor?: AccountClients;
  events?: AccountServicesDeps['events'];
};

export function createTestAccountServices(deps: TestAccountServicesDeps) {
  const { factory, ...rest } = deps;
  return createAccountServices({
    ...rest,
    clientFor: deps.clientFor ?? createAccountClients({ secretBox: deps.secretBox, factory }),
    events: deps.events ?? createInProcessEventBus({ clock: deps.clock }),
  });
}
