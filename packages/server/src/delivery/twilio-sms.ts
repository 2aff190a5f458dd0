import type { OutgoingMessage, SmsProvider } from './delivery.adapters.js';

/** Twilio's Programmable Messaging settings (TWILIO_* in config.ts). */
export interface TwilioSettings {
  readonly accountSid: string;
  /** A secret: sent only as the Basic auth password, never logged nor put in an error. */
  readonly authToken: string;
  /** The sender: an E.164 number (+15550001111) or a Messaging Service SID (MG…). */
  readonly from: string;
  /** https://api.twilio.com, or a stand-in (tests) / a regional edge. */
  readonly apiUrl: string;
  /** Country calling code put before numbers stored without one (e.g. 86 for 13800138000). */
  readonly defaultCountryCode: string;
}

const SEND_TIMEOUT_MS = 10_000;
const FAILED_STATUSES = new Set(['failed', 'undelivered', 'canceled']);

/** A failed delivery; the message names Twilio's status and error, never a credential. */
export class SmsDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmsDeliveryError';
  }
}

/** The E.164 form Twilio demands: a number without `+` gets the default country code. */
export function toE164(phone: string, defaultCountryCode: string): string {
  const digits = phone.trim();
  return digits.startsWith('+') ? digits : `+${defaultCountryCode}${digits}`;
}

function describeFailure(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const record = body as { code?: unknown; message?: unknown };
    const code =
      typeof record.code === 'number' || typeof record.code === 'string' ? record.code : '';
    const text = typeof record.message === 'string' ? record.message.slice(0, 200) : '';
    return `Twilio answered ${status}${code !== '' ? ` (error ${code})` : ''}${text ? `: ${text}` : ''}`;
  }
  return `Twilio answered ${status}`;
}

/**
 * SMS through Twilio's Messages API: POST /2010-04-01/Accounts/{AccountSid}/Messages.json,
 * form-encoded To, Body and From (or MessagingServiceSid), HTTP Basic auth with the account SID
 * and auth token. Twilio accepts the message (queued/accepted) or answers an error.
 */
export function createTwilioSmsProvider(
  settings: TwilioSettings,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): SmsProvider {
  const send = options.fetch ?? fetch;
  const url = new URL(
    `/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`,
    settings.apiUrl,
  );
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  const sender = settings.from.startsWith('MG') ? 'MessagingServiceSid' : 'From';

  return {
    async send(message: OutgoingMessage): Promise<void> {
      const form = new URLSearchParams({
        To: toE164(message.to, settings.defaultCountryCode),
        Body: message.text,
        [sender]: settings.from,
      });
      let response: Response;
      try {
        response = await send(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? SEND_TIMEOUT_MS),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'Error';
        throw new SmsDeliveryError(`Twilio could not be reached (${reason})`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = undefined;
      }
      if (!response.ok) throw new SmsDeliveryError(describeFailure(response.status, body));
      const status =
        body && typeof body === 'object' && 'status' in body ? String(body.status) : '';
      if (FAILED_STATUSES.has(status)) {
        throw new SmsDeliveryError(`Twilio did not send the message (status ${status})`);
      }
    },
  };
}
