import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Migrates one database (PostgreSQL template or PGlite snapshot) that every test file copies.
    globalSetup: ['./test/helpers/global-setup.ts'],
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
