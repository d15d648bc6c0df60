import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planProgram } from '../../../src/judge/plan-program.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ar-plan-program-'));
  await writeFile(join(dir, 'main.js'), '');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const judge = { provider: 'sim', model: 'sim-1' } as const;
const builtinArgs = ['judge', 'outputs', '--rubric', 'rubric.md'];
const options = () => ({ builtinArgs, timeoutMs: 1000, cliEntry: join(dir, 'main.js') });

describe('planProgram for a built-in program', () => {
  it('starts builtin-main.js beside the CLI’s entry when the build has one', async () => {
    await writeFile(join(dir, 'builtin-main.js'), '');
    const plan = planProgram(judge, options());
    expect(plan.argv).toEqual([process.execPath, join(dir, 'builtin-main.js'), ...builtinArgs]);
    // Its settings still come on stdin (the proxy's wire, whatever the run's provider).
    expect(JSON.parse(plan.input ?? '')).toHaveProperty('provider');
  });

  it('falls back to the CLI itself when it has none', () => {
    expect(planProgram(judge, options()).argv).toEqual([
      process.execPath,
      join(dir, 'main.js'),
      ...builtinArgs,
    ]);
  });

  it('runs a judge command of the user’s as given, whatever the build has', async () => {
    await writeFile(join(dir, 'builtin-main.js'), '');
    const plan = planProgram({ command: ['my-judge', '--strict'] }, options());
    expect(plan.argv).toEqual(['my-judge', '--strict']);
    expect(plan.input).toBeUndefined();
  });
});
