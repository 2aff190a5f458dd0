import { createPaperDesk } from '../../src/exchange/paper/paper-desk.js';
import {
  createPaperExchangeClient,
  type PaperClientDeps,
} from '../../src/exchange/paper/paper-exchange-client.js';

/**
 * A paper client with a desk of its own, for tests that drive one paper account directly. The
 * product's client factory passes one desk shared by every paper account instead.
 */
export function testPaperClient(deps: Omit<PaperClientDeps, 'desk'>) {
  return createPaperExchangeClient({ ...deps, desk: createPaperDesk(deps.db, deps.paperBalances) });
}
