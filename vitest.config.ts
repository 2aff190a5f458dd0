import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts'],
    // Two files at a time (the default on two cores is one): many server files spend their time
    // waiting on killed and restarted processes or leases running out, which the other file's
    // work fills. Each file runs on a database of its own.
    maxWorkers: 2,
  },
});
