import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planProgram } from '../../../src/judge/plan-program.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('ar-plan-program-');
beforeEach(async () => {
  await writeFile(join(tmp(), 'main.js'), '');
});

const judge = { provider: 'sim', model: 'sim-1' } as const;
const builtinArgs = ['judge', 'outputs', '--rubric', 'rubric.md'];
const options = () => ({ builtinArgs, timeoutMs: 1000, cliEntry: join(tmp(), 'main.js') });

describe('planProgram for a built-in program', () => {
  it('starts builtin-main.js beside the CLI’s entry when the build has one', async () => {
    await writeFile(join(tmp(), 'builtin-main.js'), '');
    const plan = planProgram(judge, options());
    expect(plan.argv).toEqual([process.execPath, join(tmp(), 'builtin-main.js'), ...builtinArgs]);
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

  it('falls back to the CLI itself when it has none', () => {
    expect(planProgram(judge, options()).argv).toEqual([
      process.execPath,
      join(tmp(), 'main.js'),
      ...builtinArgs,
    ]);
  });

  it('runs a judge command of the user’s as given, whatever the build has', async () => {
    await writeFile(join(tmp(), 'builtin-main.js'), '');
    const plan = planProgram({ command: ['my-judge', '--strict'] }, options());
    expect(plan.argv).toEqual(['my-judge', '--strict']);
    expect(plan.input).toBeUndefined();
  });
});
