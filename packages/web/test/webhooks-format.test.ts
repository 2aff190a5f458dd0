import { WEBHOOK_EXAMPLE_ALERT_TEXT } from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { prettyAlertText } from '../src/features/webhooks/AlertFormatCard';
import {
  failureText,
  formatLatency,
  looksLikeIp,
  reasonText,
  sampleAlert,
} from '../src/features/webhooks/webhook-format';

// A stand-in translator that shows which key and values were asked for.
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;

describe('webhook screens', () => {
  it('lays the example alert out one field to a line, keeping TradingView placeholders', () => {
    const text = prettyAlertText(WEBHOOK_EXAMPLE_ALERT_TEXT);
    const lines = text.split('\n');
    expect(lines[0]).toBe('{');
    expect(lines.at(-1)).toBe('}');
    expect(lines).toContain('  "action": "{{strategy.order.action}}",');
    expect(text.replace(/\s/g, '')).toBe(WEBHOOK_EXAMPLE_ALERT_TEXT.replace(/\s/g, ''));
  });

  it('offers a test alert that is JSON with the configuration symbol, a fresh id and time', () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    expect(JSON.parse(sampleAlert('ETH/USDT:USDT', now))).toEqual({
      action: 'buy',
      symbol: 'ETH/USDT:USDT',
      id: `test-${now.getTime()}`,
      timestamp: '2026-01-02T03:04:05.000Z',
    });
    expect(JSON.parse(sampleAlert(null, now)).symbol).toBe('BINANCE:BTCUSDT.P');
  });

  it('accepts IPv4 and IPv6 addresses in the allowlist and nothing else', () => {
    for (const ip of ['52.89.214.238', '10.0.0.1', '::1', '2001:db8::8a2e:370:7334']) {
      expect(looksLikeIp(ip), ip).toBe(true);
    }
    for (const ip of ['256.1.1.1', '1.2.3', 'tradingview.com', '', '1.2.3.4/24']) {
      expect(looksLikeIp(ip), ip).toBe(false);
    }
  });

  it('says refusals and failures by their codes, and unknown ones as the server wrote them', () => {
    expect(reasonText(t, 'stale', 'The alert is older')).toContain('webhooks.reasons.stale');
    expect(reasonText(t, 'amount_too_small', null)).toContain('"min":10');
    expect(reasonText(t, 'something_new', 'Server text')).toBe('Server text');
    expect(failureText(t, 'insufficient_funds', 'x')).toBe(
      'webhooks.failureKinds.insufficient_funds',
    );
    expect(failureText(t, null, 'Exchange said no')).toBe('Exchange said no');
  });

  it('shows latencies under a second in ms and longer ones in seconds', () => {
    expect(formatLatency(t, 42)).toBe('webhooks.ms {"value":42}');
    expect(formatLatency(t, 1530)).toBe('webhooks.seconds {"value":"1.5"}');
    expect(formatLatency(t, null)).toBe('—');
  });
});
