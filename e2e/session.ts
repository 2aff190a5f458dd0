import { type APIRequestContext, expect, type Page } from '@playwright/test';

/** Registers a fresh e-mail user over the API and signs the page in with its tokens. */
export async function signedInUser(page: Page, request: APIRequestContext, prefix: string) {
  const email = `${prefix}-${Date.now()}@example.com`;
  const password = 'correct-horse-42';
  const answer = await request.post('/api/auth/register/', {
    data: { email, password, password2: password },
  });
  expect(answer.status()).toBe(201);
  const tokens = (await answer.json()) as { access: string; refresh: string };
  await page.addInitScript(({ access, refresh }) => {
    if (!localStorage.getItem('access')) {
      localStorage.setItem('access', access);
      localStorage.setItem('refresh', refresh);
    }
    // The dashboard's welcome modal is not what these tests look at.
    localStorage.setItem('qs.welcomeClosedAt', String(Date.now()));
  }, tokens);
  return { email, password, ...tokens };
}
