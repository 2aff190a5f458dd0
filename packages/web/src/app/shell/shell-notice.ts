import { useSyncExternalStore } from 'react';

// A notice that outlives the screen that raised it (e.g. "registered" shown on /my/security
// after the register screen has gone): the shell shows it above every page until it is closed
// or its time is up.

export interface ShellNotice {
  id: number;
  type: 'success' | 'info' | 'warning' | 'error';
  title: string;
  description?: string;
  testId?: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: ShellNotice | null = null;
let hideTimer: ReturnType<typeof setTimeout> | null = null;
let nextId = 1;

function notify(): void {
  for (const listener of listeners) listener();
}

/** Shows `notice` (replacing any other) and hides it after `durationMs`. */
export function showShellNotice(notice: Omit<ShellNotice, 'id'>, durationMs: number): void {
  if (hideTimer !== null) clearTimeout(hideTimer);
  const shown: ShellNotice = { ...notice, id: nextId++ };
  current = shown;
  hideTimer = setTimeout(() => hideShellNotice(shown.id), durationMs);
  notify();
}

/** Hides the notice `id` (or whichever is shown when no id is given). */
export function hideShellNotice(id?: number): void {
  if (current === null || (id !== undefined && current.id !== id)) return;
  if (hideTimer !== null) clearTimeout(hideTimer);
  hideTimer = null;
  current = null;
  notify();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useShellNotice(): ShellNotice | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
