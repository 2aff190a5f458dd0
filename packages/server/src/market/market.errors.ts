import { ERROR_CODES } from '@quantsquare/contracts';
import { DomainError, ValidationFailed } from '../common/errors.js';

/**
 * The exchange could not be read (network, timeout, rate limit, outage). Callers retry later;
 * in MARKET_DATA=auto the feed serves the simulated source instead, so only `live` answers 503.
 */
export class ExchangeUnavailable extends DomainError {
  constructor(exchange: string, reason: string) {
    super(503, ERROR_CODES.exchangeUnavailable, `Exchange ${exchange} is unavailable: ${reason}`);
  }
}

/** A symbol the exchange (or the simulated list) does not list: a field error on `symbol`. */
export function unknownSymbol(exchange: string, symbol: string): ValidationFailed {
  return ValidationFailed.field('symbol', `Unknown symbol ${symbol} on ${exchange}`);
}
