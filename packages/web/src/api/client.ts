import { type ApiError, HTTP_TIMEOUT_MS, type TokenPair } from '@quantsquare/contracts';
import i18next from 'i18next';
import { clearTokens, getAccessToken, getRefreshToken, setTokens } from './tokens';

/** Relative to the page's own origin; the dev server and the production server both answer it. */
const API_BASE = '/api';

export type ApiFailureKind = 'http' | 'network' | 'timeout';

/** A failed call: an HTTP error answer (with its `{error, code, fields}` body) or no answer. */
export class ApiRequestError extends Error {
  readonly kind: ApiFailureKind;
  readonly status: number;
  readonly body: ApiError | null;

  constructor(kind: ApiFailureKind, status: number, body: ApiError | null) {
    super(body?.error ?? `${kind} ${status}`);
    this.name = 'ApiRequestError';
    this.kind = kind;
    this.status = status;
    this.body = body;
  }
}

type AuthLostHandler = () => void;
let authLostHandler: AuthLostHandler | null = null;

/** Called when the session cannot be renewed (the app sends the user to /login). */
export function setAuthLostHandler(handler: AuthLostHandler | null): void {
  authLostHandler = handler;
}

function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { error?: unknown }).error === 'string' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('timeout'), HTTP_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort('cancelled');
  options.signal?.addEventListener('abort', onOuterAbort);
  // The reader's language: what the server writes to them (a sign-in code's e-mail or SMS) follows it.
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': i18next.language || 'zh-CN',
  };
  const access = getAccessToken();
  if (access) headers.Authorization = `Bearer ${access}`;
  // A FormData body (file uploads) is sent as multipart; the browser writes its content type.
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  let body: BodyInit | undefined;
  if (isForm) body = options.body as FormData;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  try {
    return await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body,
      signal: controller.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiRequestError(controller.signal.aborted ? 'timeout' : 'network', 0, null);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

async function parse<T>(response: Response): Promise<T> {
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    throw new ApiRequestError('http', response.status, isApiError(data) ? data : null);
  }
  return data as T;
}

// One refresh at a time: concurrent 401s wait for the same renewal.
let refreshInFlight: Promise<boolean> | null = null;

async function refreshTokens(): Promise<boolean> {
  const refresh = getRefreshToken();
  if (!refresh) return false;
  try {
    const response = await fetch(`${API_BASE}/auth/refresh/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ refresh }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    if (!response.ok) return false;
    const pair = (await response.json()) as TokenPair;
    if (!pair.access || !pair.refresh) return false;
    // Logged out (or into another session) while the renewal was under way: its answer belongs
    // to a session this device has left and must not bring it back.
    if (getRefreshToken() !== refresh) return false;
    setTokens(pair.access, pair.refresh);
    return true;
  } catch {
    return false;
  }
}

function refreshOnce(): Promise<boolean> {
  refreshInFlight ??= refreshTokens().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/** Drops the session a call was made with, unless the device has moved on from it already. */
function loseSession(usedAccess: string): void {
  const current = getAccessToken();
  if (current !== null && current !== usedAccess) return;
  if (current !== null) clearTokens({ expired: true });
  authLostHandler?.();
}

/**
 * Calls the API. A 401 on a signed-in call renews the tokens once and retries once; when the
 * renewal fails the session is dropped and the auth-lost handler runs. A call whose session
 * ended on this device meanwhile (logout) is not renewed: its 401 is simply its answer.
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const usedAccess = getAccessToken();
  const response = await send(method, path, options);
  if (response.status !== 401 || usedAccess === null) return parse<T>(response);
  const current = getAccessToken();
  if (current === null) return parse<T>(response);

  // Another call may have renewed the tokens already; otherwise renew them now.
  const renewed = current !== usedAccess || (await refreshOnce());
  if (!renewed) {
    loseSession(usedAccess);
    return parse<T>(response);
  }
  const retriedWith = getAccessToken();
  if (retriedWith === null) return parse<T>(response);
  const retried = await send(method, path, options);
  if (retried.status === 401) loseSession(retriedWith);
  return parse<T>(retried);
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => apiRequest<T>('GET', path, { signal }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>('PUT', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>('PATCH', path, { body: body ?? {} }),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
  /** A multipart POST (file uploads). */
  upload: <T>(path: string, form: FormData) => apiRequest<T>('POST', path, { body: form }),
};
