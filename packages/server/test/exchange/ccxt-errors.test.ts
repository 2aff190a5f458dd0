import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import {
  errorKindOf,
  isAmbiguousSend,
  translateCcxtError,
} from '../../src/exchange/ccxt/ccxt-errors.js';
import { EXCHANGE_CAPABILITIES } from '../../src/exchange/exchange-capabilities.js';

// Each ccxt class, the kind it becomes, and whether a createOrder that failed with it may have
// placed the order (then we look it up by client id instead of answering the error).
const TABLE = [
  [ccxt.AuthenticationError, 'invalid_key', false],
  [ccxt.PermissionDenied, 'invalid_key', false],
  [ccxt.AccountSuspended, 'invalid_key', false],
  [ccxt.InsufficientFunds, 'insufficient_funds', false],
  [ccxt.InvalidOrder, 'invalid_order', false],
  [ccxt.OrderNotFound, 'invalid_order', false],
  [ccxt.BadSymbol, 'invalid_order', false],
  [ccxt.BadRequest, 'invalid_order', false],
  [ccxt.RateLimitExceeded, 'rate_limited', false],
  [ccxt.DDoSProtection, 'rate_limited', false],
  [ccxt.RequestTimeout, 'unavailable', true],
  [ccxt.NetworkError, 'unavailable', true],
  [ccxt.ExchangeNotAvailable, 'unavailable', true],
  [ccxt.OnMaintenance, 'unavailable', true],
  [ccxt.BadResponse, 'unavailable', true],
  [ccxt.ExchangeError, 'unavailable', false],
] as const;

describe('ccxt errors translated at the boundary', () => {
  it.each(TABLE)(
    '%o becomes %s (outcome unknown on create: %s)',
    (ErrorClass, kind, isAmbiguous) => {
      const error = new ErrorClass('binanceusdm {"code":-1,"msg":"x"}');
      expect(errorKindOf(error)).toBe(kind);
      expect(isAmbiguousSend(error)).toBe(isAmbiguous);
    },
  );

  it('pins the Binance futures codes ccxt only knows on the real hostname', () => {
    const error = new ccxt.ExchangeError(
      'binanceusdm {"code":-2019,"msg":"Margin is insufficient."}',
    );
    const translated = translateCcxtError(error, {
      exchange: 'binance',
      action: 'create order',
      secrets: [],
      caps: EXCHANGE_CAPABILITIES.binance,
    });
    expect(translated.kind).toBe('insufficient_funds');
  });

  it('keeps secrets and signatures out of the message', () => {
    const error = new ccxt.RequestTimeout(
      'binanceusdm GET https://fapi.binance.com/fapi/v3/account?timestamp=1&signature=abc123 key-XYZ9 timed out',
    );
    const translated = translateCcxtError(error, {
      exchange: 'binance',
      action: 'fetch balance',
      secrets: ['key-XYZ9'],
      caps: EXCHANGE_CAPABILITIES.binance,
    });
    expect(translated.kind).toBe('unavailable');
    expect(translated.message).not.toContain('key-XYZ9');
    expect(translated.message).not.toContain('abc123');
  });
});
