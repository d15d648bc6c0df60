/**
 * `on_finish` (docs/design/cost-engine.md) hears of a night that ended in an error, not only of one
 * that stopped: a real run whose resume fails part-way (a pool ref rewritten by hand, which the run
 * refuses to overwrite) still hands the summary to the program, with status "crashed", and the
 * error stays the run's. Needs `npm run build` first.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { poolRef } from '../../src/git/pool-refs.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const EXPERIMENT = 'experiments/inbox-replies';

/** Writes its stdin to summary.json beside it. */
const RECORDER = `import { writeFileSync } from 'node:fs';
let text = '';
process.stdin.on('data', (d) => { text += d; });
process.stdin.on('end', () => writeFileSync(new URL('./summary.json', import.meta.url), text));
`;

let repo: TempRepo | undefined;
beforeAll(requireBuiltCli);
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('on_finish after an error', () => {
  it('gets the summary with status "crashed", and the run still fails with its own error', async () => {
    const read = (file: string) => readFile(path.join(REPO_ROOT, EXPERIMENT, file), 'utf8');
    const config = await read('experiment.yaml');
    repo = await createTempRepo({
      files: {
        [`${EXPERIMENT}/experiment.yaml`]: `${config}\non_finish: ["${process.execPath}", "./notify.mjs"]\n`,
        [`${EXPERIMENT}/cases.yaml`]: await read('cases.yaml'),
        [`${EXPERIMENT}/prompt.md`]: await read('prompt.md'),
        [`${EXPERIMENT}/notify.mjs`]: RECORDER,
      },
      config: { 'user.name': 'Ada Lovelace', 'user.email': 'ada@example.com' },
    });
    const runsDir = path.join(path.dirname(repo.dir), 'runs');
    const env = cleanEnv({
      HOME: repo.env['HOME'],
      XDG_CONFIG_HOME: repo.env['XDG_CONFIG_HOME'],
      GIT_CONFIG_NOSYSTEM: '1',
    });
    const cli = (args: string[]) =>
      runBuiltCli([...args, '--runs-dir', runsDir], { cwd: repo?.dir as string, env });
    const summaryFile = path.join(repo.dir, EXPERIMENT, 'summary.json');
    const summary = async () => JSON.parse(await readFile(summaryFile, 'utf8'));

    const first = await cli(['run', EXPERIMENT, '--provider', 'sim', '--iterations', '1']);
    expect(first.code, first.stderr).toBe(0);
    const [runId] = runFolders(runsDir);
    expect(await summary()).toMatchObject({ run_id: runId, status: 'finished', stop_reason: 'iterations' });
    await rm(summaryFile);

    // The baseline's pool ref now points at the user's own commit: resume refuses to go on.
    const ref = poolRef('inbox-replies', runId as string, 'p0');
    await repo.git(['update-ref', ref, (await repo.git(['rev-parse', 'HEAD'])).trim()]);
    const resumed = await cli(['resume', runId as string, '--iterations', '+1']);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain(`pool ref ${ref} points elsewhere`);

    expect(existsSync(summaryFile)).toBe(true);
    expect(await summary()).toMatchObject({
      run_id: runId,
      experiment: 'inbox-replies',
      status: 'crashed',
      stop_reason: null,
      iterations: 1,
    });
  }, 120_000);
});
