// A live bot's entry on binance as the venue answers, then its protection (bot-venue-protection.ts).
import { describeVenueProtection } from './bot-venue-protection.js';

describeVenueProtection('binance');
