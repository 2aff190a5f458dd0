// The order lifecycle on binance as the venue answers (venue-lifecycle.ts).
import { describeVenueLifecycle } from './venue-lifecycle.js';

describeVenueLifecycle('binance');
