// Whether the welcome advertisement was closed on this device; kept apart from the dialog so the
// dashboard can skip loading it.

/** When the user closed the welcome advertisement (ISO time); it is not shown again after that. */
export const WELCOME_CLOSED_STORAGE_KEY = 'qs.welcomeClosedAt';

export function wasClosedBefore(): boolean {
  try {
    return localStorage.getItem(WELCOME_CLOSED_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

export function rememberClosed(): void {
  try {
    localStorage.setItem(WELCOME_CLOSED_STORAGE_KEY, new Date().toISOString());
  } catch {
    // Without storage the advertisement simply shows again on the next visit.
  }
}
