import { defineConfig } from 'vitest/config';

// CI asks for a JSON report (read by .ci/run for its closing line) through this variable.
const jsonReport = process.env['AUTORESEARCH_TEST_JSON'];

export default defineConfig({
  test: {
    // Builds dist/ first (incrementally): integration tests run the built CLI.
    globalSetup: ['test/build-before-tests.ts'],
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        // Real subprocesses, servers, git repos: one file at a time so two cores never flake.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
        },
      },
      {
        // SIGKILL-and-resume trials: serial and on their own.
        extends: true,
        test: {
          name: 'kill',
          include: ['test/kill/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 300_000,
        },
      },
    ],
  },
});
