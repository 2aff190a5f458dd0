// Where sign-in codes go (issue 8, item 1): the dev outbox only for this machine and only while a
// channel has no real delivery, a loud start-up warning when codes go there, and real SMS through
// Twilio's Messages API (tested against a local stand-in of that API).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { OutgoingMessage } from '../../src/delivery/delivery.adapters.js';
import { PASSWORD, uniquePhone } from '../helpers/auth-flows.js';
import {
  call,
  createTestApp,
  TEST_SECRET_KEY,
  type TestApp,
  useTestApp,
} from '../helpers/test-app.js';

const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'twilio-auth-token-5e2f9a7c';
const FROM = '+15005550006';

interface TwilioRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

/** A stand-in for Twilio's Messages API: records each create, answers as Twilio does. */
class FakeTwilio {
  readonly requests: TwilioRequest[] = [];
  /** The next answer's status and body instead of a queued message. */
  failNext: { status: number; body: unknown } | undefined;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    let text = '';
    for await (const chunk of request) text += chunk;
    const form = Object.fromEntries(new URLSearchParams(text));
    this.requests.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      form,
    });
    const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } };
    }
    if (
      request.method !== 'POST' ||
      request.url !== `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`
    ) {
      return { status: 404, body: { code: 20404, message: 'Not found', status: 404 } };
    }
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) return failure;
    return {
      status: 201,
      body: {
        sid: `SM${this.requests.length}`,
        account_sid: ACCOUNT_SID,
        to: form.To,
        from: form.From,
        body: form.Body,
        status: 'queued',
        error_code: null,
        error_message: null,
      },
    };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

const twilio = new FakeTwilio();
const devLines: string[] = [];
const dev = useTestApp({
  env: { NODE_ENV: 'development' },
  logStream: { write: (line) => devLines.push(line) },
});

const mails: OutgoingMessage[] = [];
const realLines: string[] = [];
let real: TestApp;
beforeAll(async () => {
  await twilio.start();
  // Real e-mail (an SMTP stand-in) and real SMS through the Twilio stand-in.
  real = await createTestApp({
    env: {
      NODE_ENV: 'development',
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_FROM: FROM,
      TWILIO_API_URL: twilio.url,
    },
    mailer: { send: async (message) => void mails.push(message) },
    logStream: { write: (line) => realLines.push(line) },
  });
});
afterAll(async () => {
  await real.close();
  await twilio.stop();
});

describe('the dev outbox without real delivery', () => {
  it('says loudly at start-up that codes go to the outbox', () => {
    const warning = devLines.map((line) => JSON.parse(line)).find((entry) => entry.level === 40);
    expect(warning?.msg).toMatch(
      /^SIGN-IN CODES ARE NOT SENT: e-mail .* and SMS .* go to the dev outbox/,
    );
  });

  it('answers this machine', async () => {
    const res = await call(dev.app, 'GET', '/api/dev/outbox/');
    expect(res.status).toBe(200);
  });

  it('answers nobody else, as a route that does not exist', async () => {
    const remote = await dev.app.inject({
      method: 'GET',
      url: '/api/dev/outbox/',
      remoteAddress: '203.0.113.7',
    });
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toMatchObject({ code: 'not_found' });
    const ipv6 = await dev.app.inject({
      method: 'GET',
      url: '/api/dev/outbox/?to=x',
      remoteAddress: '2001:db8::1',
    });
    expect(ipv6.statusCode).toBe(404);
  });

  it('answers no request relayed by a proxy, even from this machine', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const res = await call(dev.app, 'GET', '/api/dev/outbox/', {
        headers: { [header]: '203.0.113.7' },
      });
      expect({ header, status: res.status }).toEqual({ header, status: 404 });
    }
  });
});

describe('real delivery', () => {
  it('sends SMS codes through Twilio and serves no outbox', async () => {
    const phone = uniquePhone();
    const sent = await call(real.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: phone },
    });
    expect(sent.status).toBe(200);
    const request = twilio.requests.at(-1);
    expect(request).toMatchObject({
      path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`,
      contentType: 'application/x-www-form-urlencoded',
      form: { To: phone, From: FROM, Body: expect.stringMatching(/\b\d{6}\b/) },
    });
    const code = request?.form.Body?.match(/\b(\d{6})\b/)?.[1];
    const registered = await call(real.app, 'POST', '/api/auth/phone-register/', {
      body: { phone, code, password: PASSWORD, password2: PASSWORD },
    });
    expect(registered.status).toBe(201);

    expect((await call(real.app, 'GET', '/api/dev/outbox/')).status).toBe(404);
    expect(realLines.some((line) => line.includes('SIGN-IN CODES'))).toBe(false);
  });

  it('puts the default country code before a number stored without one', async () => {
    const sent = await call(real.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: '13800138000' },
    });
    expect(sent.status).toBe(200);
    expect(twilio.requests.at(-1)?.form.To).toBe('+8613800138000');
  });

  it("answers 'Failed to send code' when Twilio refuses, and logs no credential", async () => {
    twilio.failNext = {
      status: 400,
      body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
    };
    realLines.length = 0;
    const res = await call(real.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: uniquePhone() },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Failed to send code', code: 'send_failed' });
    const log = realLines.join('');
    expect(log).toContain('Twilio answered 400 (error 21211)');
    expect(log).not.toContain(AUTH_TOKEN);
    expect(log).not.toContain(Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64'));
  });
});

describe('configuration', () => {
  const base = { NODE_ENV: 'test', SECRET_KEY: TEST_SECRET_KEY };
  it('reads Twilio from the environment', () => {
    const config = loadConfig(
      {
        ...base,
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        TWILIO_FROM: 'MG0123456789abcdef0123456789abcdef',
      },
      { generateSecret: false },
    );
    expect(config.sms).toEqual({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      from: 'MG0123456789abcdef0123456789abcdef',
      apiUrl: 'https://api.twilio.com',
      defaultCountryCode: '86',
    });
    expect(loadConfig(base, { generateSecret: false }).sms).toBeUndefined();
  });

  it('refuses a partial Twilio configuration', () => {
    expect(() =>
      loadConfig({ ...base, TWILIO_ACCOUNT_SID: ACCOUNT_SID }, { generateSecret: false }),
    ).toThrow(ConfigError);
  });
});
