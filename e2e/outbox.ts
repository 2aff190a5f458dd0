import { type APIRequestContext, expect } from '@playwright/test';

interface OutboxMessage {
  id: number;
  code: string | null;
}

/** Ids of the messages already in the dev outbox for `to`. */
export async function outboxIds(request: APIRequestContext, to: string): Promise<Set<number>> {
  const answer = await request.get(`/api/dev/outbox/?to=${encodeURIComponent(to)}`);
  expect(answer.ok()).toBe(true);
  const body = (await answer.json()) as { results: OutboxMessage[] };
  return new Set(body.results.map((m) => m.id));
}

/** Waits for a message to `to` that was not in `seen`, and answers its code. */
export async function newCode(
  request: APIRequestContext,
  to: string,
  seen: Set<number>,
): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/dev/outbox/?to=${encodeURIComponent(to)}`);
        const body = (await answer.json()) as { results: OutboxMessage[] };
        const fresh = body.results.find((m) => !seen.has(m.id) && m.code);
        code = fresh?.code ?? null;
        return code;
      },
      { timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code as unknown as string;
}
