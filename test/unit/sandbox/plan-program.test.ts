import { describe, expect, it } from 'vitest';
import { planProgram } from '../../../src/sandbox/plan-program.js';

const judge = { provider: 'sim', model: 'sim-1' } as const;
const CLI_ENTRY = '/opt/autoresearch/dist/cli/main.js';
const builtinArgs = ['judge', 'outputs', '--rubric', 'rubric.md'];
const options = () => ({ builtinArgs, timeoutMs: 1000, cliEntry: CLI_ENTRY });

describe('planProgram for a built-in program', () => {
  it('starts the CLI’s own command with the same Node binary', () => {
    const plan = planProgram(judge, options());
    expect(plan.argv).toEqual([process.execPath, CLI_ENTRY, ...builtinArgs]);
    // Its settings still come on stdin (the proxy's wire, whatever the run's provider).
    expect(JSON.parse(plan.input ?? '')).toHaveProperty('provider');
  });

  it('tells the built-in program to keep twice its endpoint’s limit in flight', () => {
    const settings = (endpointLimit?: number) =>
      JSON.parse(
        planProgram(judge, { ...options(), ...(endpointLimit === undefined ? {} : { endpointLimit }) })
          .input ?? '',
      );
    expect(settings(16).concurrency).toBe(32);
    expect(settings(1).concurrency).toBe(2);
    // Planned without the run's client: one call at a time, one waiting.
    expect(settings().concurrency).toBe(2);
  });

  it('runs a judge command of the user’s as given', () => {
    const plan = planProgram({ command: ['my-judge', '--strict'] }, options());
    expect(plan.argv).toEqual(['my-judge', '--strict']);
    expect(plan.input).toBeUndefined();
  });
});
