// The order lifecycle on okx as the venue answers (venue-lifecycle.ts).
import { describeVenueLifecycle } from './venue-lifecycle.js';

describeVenueLifecycle('okx');
