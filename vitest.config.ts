import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two cores: end-to-end files each start a real server, so keep parallelism modest.
    maxWorkers: 2,
    // Each worker keeps the modules it imported from one test file to the next, instead of importing the
    // server anew for every file: on 2 cores that took the suite from 565 to 440 CPU seconds. The price is
    // that a test file must leave no state behind (environment variables, module-level settings); each
    // restores what it changes, and the whole suite passes in either mode.
    isolate: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
