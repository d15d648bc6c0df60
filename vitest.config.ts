import { defineConfig } from 'vitest/config';
import { SlowTiersFirst } from './test/slow-tiers-first.js';

// CI asks for a JSON report (read by .ci/run for its closing line) through this variable.
const jsonReport = process.env['AUTORESEARCH_TEST_JSON'];

// Two test files at a time in every tier: most integration and kill files spend much of their
// time waiting on the processes they start, so two side by side keep both cores busy. vitest
// runs projects together only when they share a worker count.
const WORKERS = 2;

export default defineConfig({
  test: {
    // Builds dist/ first (incrementally): integration tests run the built CLI.
    globalSetup: ['test/build-before-tests.ts'],
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: WORKERS,
    sequence: { sequencer: SlowTiersFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        // Real subprocesses, servers, git repos.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
      {
        // SIGKILL-and-resume trials.
        extends: true,
        test: {
          name: 'kill',
          include: ['test/kill/**/*.test.ts'],
          testTimeout: 300_000,
        },
      },
    ],
  },
});
