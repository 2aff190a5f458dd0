// Timers the browser tests' server runs with, shorter than the product's, so that a test waits
// seconds where a user would wait a minute. The product's own values are tested in Vitest.

/** Seconds between two codes to one address (the product's is 60). */
export const E2E_CODE_COOLDOWN_SECONDS = 5;
