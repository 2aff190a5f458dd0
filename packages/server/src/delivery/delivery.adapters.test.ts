import { describe, expect, it } from 'vitest';
import type { OutboxRepository } from '../modules/system/outbox.repository.js';
import { createOutboxMailer, createOutboxSmsProvider } from './delivery.adapters.js';

function fakeOutbox(stored: unknown[]): OutboxRepository {
  return {
    insert: async (message) => {
      stored.push(message);
      return { ...message, id: stored.length, createdAt: new Date(0) };
    },
    list: async () => [],
  };
}

describe('outbox delivery', () => {
  it('writes the message with its code to the outbox and logs it without the code', async () => {
    const stored: unknown[] = [];
    const logged: string[] = [];
    const log = {
      info: (obj: Record<string, unknown>, msg: string) =>
        logged.push(JSON.stringify({ obj, msg })),
    };
    await createOutboxMailer(fakeOutbox(stored), log).send({
      to: 'a@example.com',
      subject: 'Code',
      text: 'Your code is 424242',
      code: '424242',
    });
    await createOutboxSmsProvider(fakeOutbox(stored), log).send({
      to: '+8613800000000',
      subject: 'Code',
      text: 'Your code is 515151',
      code: '515151',
    });
    expect(stored).toEqual([
      expect.objectContaining({ channel: 'email', to: 'a@example.com', code: '424242' }),
      expect.objectContaining({ channel: 'sms', to: '+8613800000000', code: '515151' }),
    ]);
    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).not.toMatch(/424242|515151/);
  });
});
