/**
 * A real `eval` whose judge program plants what the runner must not read back: judge-scores.json
 * as a FIFO (which held the runner for good), or as a link to a host file holding a marker (whose
 * text reached stderr and events.jsonl), to the runner's /proc/self/environ (the marker is in its
 * environment) or to /dev/zero (1.2 GB of memory a try). The evaluation ends promptly as a
 * judge_error that says what was found, and the marker is in no file of the run and not on
 * stderr. Needs `npm run build` first.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, runBuiltCli } from '../helpers/built-cli.js';
import { projectWithJudge } from '../helpers/command-judge-project.js';
import { useTempDir } from '../helpers/temp-dir.js';

const FAULT = resolve(REPO_ROOT, 'test/fixtures/judges/fault-judge.mjs');
const MARKER = 'HOST-SECRET-MARKER-7f3a';
const tmp = useTempDir('judge-read-back-');

/** Every file under `dir`, as (path, text) pairs. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const path = join(e.parentPath, e.name);
        return { path, text: await readFile(path, 'utf8') };
      }),
  );
}

describe('reading back what a hostile judge left', () => {
  it.each([
    ['a FIFO', ['plant-fifo'], 'is a FIFO, not a regular file'],
    ['a link to a host file', ['plant-link', 'SECRET'], 'is a symbolic link, not a regular file'],
    [
      'a link to /proc/self/environ',
      ['plant-link', '/proc/self/environ'],
      'is a symbolic link, not a regular file',
    ],
    ['a link to /dev/zero', ['plant-link', '/dev/zero'], 'is a symbolic link, not a regular file'],
  ])('%s ends as a judge_error, promptly, quoting nothing', async (_what, mode, why) => {
    const project = tmp();
    const secret = join(project, 'host-secret.json');
    await writeFile(secret, `{"quality_score": 1, "note": "${MARKER}"}`);
    await projectWithJudge(project, [
      process.execPath,
      FAULT,
      ...mode.map((arg) => (arg === 'SECRET' ? secret : arg)),
    ]);
    const runsDir = join(project, 'runs');

    const result = await runBuiltCli(['eval', 'my-prompt', '--runs-dir', runsDir], {
      cwd: project,
      env: cleanEnv({ READ_BACK_TEST_MARKER: MARKER }),
    });

    // Before, a FIFO held the runner until SIGKILL.
    expect(result.ms).toBeLessThan(60_000);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `the evaluation failed (judge_error): the judge's judge-scores.json was not read: it ${why} (after 2 attempts)`,
    );
    expect(result.stderr).not.toContain(MARKER);
    const written = await filesUnder(runsDir);
    const events = written.filter((f) => f.path.endsWith('events.jsonl')).map((f) => f.text);
    expect(events.join('')).toContain(
      `"errorKind":"judge_error","message":"judge_error: the judge's judge-scores.json was not read: it ${why}`,
    );
    expect(written.filter((f) => f.text.includes(MARKER)).map((f) => f.path)).toEqual([]);
  });
});
