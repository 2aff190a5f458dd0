import { defaultExchangeClientFactory } from '../../src/app.js';
import { createLocalVenueBudget } from '../../src/exchange/venue-budget.js';

/** The product's client factory, with a venue budget of its own (the root passes a shared one). */
export function testClientFactory(
  deps: Omit<Parameters<typeof defaultExchangeClientFactory>[0], 'venueBudget'>,
) {
  return defaultExchangeClientFactory({ ...deps, venueBudget: createLocalVenueBudget() });
}
