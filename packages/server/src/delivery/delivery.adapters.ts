import nodemailer from 'nodemailer';

/** The minimal logger the delivery adapters use (pino/fastify's logger fits). */
export interface DeliveryLogger {
  info(obj: Record<string, unknown>, msg: string): void;
}

export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  /** The one-time code carried by the text, kept for the dev outbox only. */
  code?: string;
}

/** Where a channel without a real delivery writes its messages (the system module's outbox). */
export interface OutboxWriter {
  insert(message: {
    channel: 'email' | 'sms';
    to: string;
    subject: string;
    body: string;
    code: string | null;
  }): Promise<{ id: number }>;
}

export interface Mailer {
  send(message: OutgoingMessage): Promise<void>;
}

/** SMS delivery; the default writes the outbox, a real provider plugs in here. */
export interface SmsProvider {
  send(message: OutgoingMessage): Promise<void>;
}

export function createSmtpMailer(
  smtpUrl: string,
  from = 'QuantSquare <no-reply@quantsquare.local>',
): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}

function outboxWriter(channel: 'email' | 'sms', outbox: OutboxWriter, log: DeliveryLogger) {
  return async (message: OutgoingMessage) => {
    const row = await outbox.insert({
      channel,
      to: message.to,
      subject: message.subject,
      body: message.text,
      code: message.code ?? null,
    });
    // The code itself is never logged.
    log.info(
      { outboxId: row.id, channel, to: message.to },
      `${channel} message written to the outbox`,
    );
  };
}

export function createOutboxMailer(outbox: OutboxWriter, log: DeliveryLogger): Mailer {
  return { send: outboxWriter('email', outbox, log) };
}

export function createOutboxSmsProvider(outbox: OutboxWriter, log: DeliveryLogger): SmsProvider {
  return { send: outboxWriter('sms', outbox, log) };
}
