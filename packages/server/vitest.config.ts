import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Migrates one database (PostgreSQL template or PGlite snapshot) that every test file copies.
    globalSetup: ['./test/helpers/global-setup.ts'],
    // A worker keeps the modules it has loaded from one file to the next instead of importing the
    // server afresh for each (about 2 s of CPU per file). Test files share no state through
    // modules: each opens its own database and app, and nothing stubs modules, globals or timers.
    // A helper that registers hooks must do it inside a function the test file calls, never at
    // its module's top level (which runs once per worker).
    isolate: false,
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
