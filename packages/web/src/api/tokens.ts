import { useSyncExternalStore } from 'react';

// Tokens live in localStorage under the keys `access` and `refresh` (spec: "kept on the device").
const ACCESS_KEY = 'access';
const REFRESH_KEY = 'refresh';

type Listener = () => void;
const listeners = new Set<Listener>();

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function getAccessToken(): string | null {
  return read(ACCESS_KEY);
}

export function getRefreshToken(): string | null {
  return read(REFRESH_KEY);
}

// Whether the last session on this device ended because it could not be renewed (the login
// screen then says so); a new session or a logout clears it.
let isSessionExpired = false;

export function setTokens(access: string, refresh: string): void {
  localStorage.setItem(ACCESS_KEY, access);
  localStorage.setItem(REFRESH_KEY, refresh);
  isSessionExpired = false;
  notify();
}

export function hasSessionExpired(): boolean {
  return isSessionExpired;
}

/** Ends the session on this device; `expired` when it ended because it could not be renewed. */
export function clearTokens(options: { expired?: boolean } = {}): void {
  localStorage.removeItem(ACCESS_KEY);
  localStorage.removeItem(REFRESH_KEY);
  isSessionExpired = options.expired === true;
  notify();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  // Another tab logging in or out changes the same storage.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === ACCESS_KEY || event.key === REFRESH_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** True while an access token is stored; re-renders on login and logout. */
export function useIsLoggedIn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => getAccessToken() !== null,
    () => false,
  );
}
