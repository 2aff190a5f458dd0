/** What globalSetup hands to every test file (through vitest's provide/inject). */
export type TestDatabaseInfo =
  | { kind: 'postgres'; serverUrl: string; templateName: string }
  | { kind: 'pglite'; snapshotFile: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseInfo;
  }
}

/** The same server URL with another database name. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export const randomSuffix = (): string =>
  `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
