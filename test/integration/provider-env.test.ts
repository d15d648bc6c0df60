/**
 * `AUTORESEARCH_PROVIDER` stands in for `--provider` when the flag is not given (docs/providers.md):
 * the built CLI simulates every model under `sim`, lets the flag win, and refuses a provider it
 * does not know with exit 2, as it refuses the flag's. Needs `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli } from '../helpers/built-cli.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;

beforeAll(async () => {
  requireBuiltCli();
  const files: Record<string, string> = {};
  for (const name of ['experiment.yaml', 'prompt.md', 'cases.yaml'])
    files[`experiments/cold-email/${name}`] = await readFile(
      join(REPO_ROOT, 'experiments/cold-email', name),
      'utf8',
    );
  files['rubrics/cold-email.md'] = await readFile(join(REPO_ROOT, 'rubrics/cold-email.md'), 'utf8');
  repo = await createTempRepo({ files });
});
afterAll(async () => {
  await repo?.cleanup();
});

const validate = (env: NodeJS.ProcessEnv, flags: string[] = []) =>
  runBuiltCli(['validate', 'cold-email', ...flags], {
    cwd: repo.dir,
    env: cleanEnv({ HOME: repo.home, ...env }),
  });

describe('AUTORESEARCH_PROVIDER', () => {
  it('simulates every model when it says sim, with no key set', async () => {
    const result = await validate({ AUTORESEARCH_PROVIDER: 'sim' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toMatch(/simulated/);
    expect(result.stderr).not.toMatch(/ANTHROPIC_API_KEY/);
  });

  it('gives way to --provider and refuses an unknown provider with exit 2', async () => {
    const flagWins = await validate({ AUTORESEARCH_PROVIDER: 'nonsense' }, ['--provider', 'sim']);
    expect(flagWins.code, flagWins.stderr).toBe(0);
    const refused = await validate({ AUTORESEARCH_PROVIDER: 'nonsense' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/AUTORESEARCH_PROVIDER/);
    expect(refused.stderr).toMatch(/sim/);
  });
});
