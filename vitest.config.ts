import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Many services start side by side here: none takes the default metrics port unless
    // its test asks for metrics (test/ops/metrics*.test.ts set METRICS_PORT themselves).
    env: { METRICS_PORT: 'off' },
    // Audits the logs of the whole run for secrets (test/support/log-audit.ts); rebuilds
    // dist/ when src/ changed, for the tests that start bin/topup.js (compiled-build.ts).
    globalSetup: ['./test/support/log-audit.ts', './test/support/compiled-build.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
