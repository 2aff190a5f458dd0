import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, api, apiRequest, setAuthLostHandler } from '../src/api/client';
import { clearTokens, getAccessToken, getRefreshToken, setTokens } from '../src/api/tokens';
import { MemoryStorage } from './memory-storage';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const unauthorized = () =>
  json(401, { error: 'Token is invalid or expired', code: 'unauthorized' });

describe('api client', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    setAuthLostHandler(null);
    vi.unstubAllGlobals();
  });

  it('sends the bearer token to the /api base', async () => {
    setTokens('a1', 'r1');
    fetchMock.mockResolvedValueOnce(json(200, { ok: true }));
    await apiRequest('GET', '/auth/profile/');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/profile/');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer a1');
  });

  it('sends a file upload as multipart, leaving its content type to the browser', async () => {
    setTokens('a1', 'r1');
    fetchMock.mockResolvedValueOnce(json(200, { avatar_url: '/api/uploads/avatars/x.png' }));
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'me.png');
    await api.upload('/strategy-square/profile/upload-avatar/', form);
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(init.body).toBe(form);
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBeUndefined();
    expect(headers.Authorization).toBe('Bearer a1');
  });

  it('renews once for concurrent 401s, stores both rotated tokens and retries each call', async () => {
    setTokens('old-access', 'old-refresh');
    let refreshCalls = 0;
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      if (url === '/api/auth/refresh/') {
        refreshCalls += 1;
        expect(JSON.parse(String(init.body))).toEqual({ refresh: 'old-refresh' });
        return json(200, { access: 'new-access', refresh: 'new-refresh' });
      }
      const auth = (init.headers as Record<string, string>).Authorization;
      return auth === 'Bearer new-access' ? json(200, { url }) : unauthorized();
    });

    const answers = await Promise.all([
      apiRequest<{ url: string }>('GET', '/auth/profile/'),
      apiRequest<{ url: string }>('GET', '/auth/account-security/'),
    ]);

    expect(refreshCalls).toBe(1);
    expect(answers.map((a) => a.url)).toEqual([
      '/api/auth/profile/',
      '/api/auth/account-security/',
    ]);
    expect(getAccessToken()).toBe('new-access');
    expect(getRefreshToken()).toBe('new-refresh');
  });

  it('drops the session and reports it when the refresh is refused', async () => {
    setTokens('old-access', 'old-refresh');
    const onAuthLost = vi.fn();
    setAuthLostHandler(onAuthLost);
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/auth/refresh/'
        ? json(401, { error: 'x', code: 'unauthorized' })
        : unauthorized(),
    );

    await expect(apiRequest('GET', '/auth/profile/')).rejects.toBeInstanceOf(ApiRequestError);
    expect(onAuthLost).toHaveBeenCalledOnce();
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
  });

  it('does not bring back a session that was logged out while its renewal was under way', async () => {
    setTokens('old-access', 'old-refresh');
    let answerRefresh: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation((url: string) =>
      url === '/api/auth/refresh/'
        ? new Promise<Response>((resolve) => {
            answerRefresh = resolve;
          })
        : Promise.resolve(unauthorized()),
    );
    const call = apiRequest('GET', '/auth/profile/').catch((e: unknown) => e);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    clearTokens(); // the user logs out
    answerRefresh(json(200, { access: 'new-access', refresh: 'new-refresh' }));
    expect(await call).toBeInstanceOf(ApiRequestError);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
  });

  it('does not renew a call whose session ended on this device before its 401 arrived', async () => {
    setTokens('old-access', 'old-refresh');
    let answerCall: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(
      () =>
        new Promise<Response>((resolve) => {
          answerCall = resolve;
        }),
    );
    const call = apiRequest('GET', '/auth/profile/').catch((e: unknown) => e);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    clearTokens();
    answerCall(unauthorized());
    expect(await call).toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(getAccessToken()).toBeNull();
  });

  it('does not try to renew a call made without a session', async () => {
    fetchMock.mockResolvedValueOnce(unauthorized());
    await expect(apiRequest('GET', '/auth/profile/')).rejects.toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('turns a login failure into an error carrying the server body', async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, {
        error: 'Google authentication code required',
        code: 'google_code_required',
        needs_google_auth: true,
      }),
    );
    const failure = await apiRequest('POST', '/auth/login/', { body: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).body?.needs_google_auth).toBe(true);
  });

  it('reports an unreachable server as a network failure', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    await expect(apiRequest('GET', '/auth/profile/')).rejects.toMatchObject({ kind: 'network' });
  });
});
