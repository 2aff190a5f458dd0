import { createInProcessEventBus } from '../../src/events/index.js';
import {
  type AdminServiceDeps,
  createAdminService,
} from '../../src/modules/admin/admin.service.js';

/** The admin commands as the CLI runs them, announcing on a bus of their own unless given one. */
export function testAdminService(
  deps: Omit<AdminServiceDeps, 'events'> & Partial<AdminServiceDeps>,
) {
  return createAdminService({ events: createInProcessEventBus({ clock: deps.clock }), ...deps });
}
