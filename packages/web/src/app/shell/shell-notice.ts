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
  /** How long it stays once it is on screen. */
  durationMs: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: ShellNotice | null = null;
let nextId = 1;

function notify(): void {
  for (const listener of listeners) listener();
}

/** Shows `notice` (replacing any other); it hides `durationMs` after it appears on screen. */
export function showShellNotice(notice: Omit<ShellNotice, 'id'>): void {
  current = { ...notice, id: nextId++ };
  notify();
}

/** Hides the notice `id` (or whichever is shown when no id is given). */
export function hideShellNotice(id?: number): void {
  if (current === null || (id !== undefined && current.id !== id)) return;
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
