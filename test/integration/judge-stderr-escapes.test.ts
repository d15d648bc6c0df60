/**
 * A judge program whose stderr carries terminal escape codes (a window title, a clear screen, an
 * OSC 52 clipboard write): they reached the terminal raw in eval's error line, and `show` printed
 * them even when piped. Both now show the codes as visible escapes and write none of their bytes.
 * Needs `npm run build` first.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, runBuiltCli } from '../helpers/built-cli.js';
import { projectWithJudge } from '../helpers/command-judge-project.js';
import { useTempDir } from '../helpers/temp-dir.js';

const FAULT = resolve(REPO_ROOT, 'test/fixtures/judges/fault-judge.mjs');
const tmp = useTempDir('judge-escapes-');
const VISIBLE =
  'judge says \\u001b]0;pwned-title\\u0007 then \\u001b[2J and \\u001b]52;c;cm0gLXJmIH4=\\u0007 bye';

function expectNoRawCodes(text: string): void {
  expect(text).not.toContain('\u001b');
  expect(text).not.toContain('\u0007');
  expect(text).not.toContain('\u009b');
}

describe('escape codes on a judge’s stderr', () => {
  it('reach neither eval’s stderr nor `show` raw, but as visible escapes', async () => {
    const project = tmp();
    await projectWithJudge(project, [process.execPath, FAULT, 'escapes']);
    const runsDir = join(project, 'runs');
    const env = cleanEnv();

    const evaluated = await runBuiltCli(['eval', 'my-prompt', '--runs-dir', runsDir], { cwd: project, env });
    expect(evaluated.code, evaluated.stderr).toBe(1);
    expect(evaluated.stderr).toContain(
      `the evaluation failed (judge_error): the judge exited with code 1: ${VISIBLE} (after 2 attempts)`,
    );
    expectNoRawCodes(evaluated.stderr);
    expectNoRawCodes(evaluated.stdout);

    const [runId] = (await readdir(runsDir)).filter((name) => !name.startsWith('.'));
    const shown = await runBuiltCli(['show', '--runs-dir', runsDir, runId ?? ''], { cwd: project, env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.replace(/\s+/g, ' ')).toContain(VISIBLE);
    expectNoRawCodes(shown.stdout);
    expectNoRawCodes(shown.stderr);

    const json = await runBuiltCli(['show', '--runs-dir', runsDir, runId ?? '', '--json'], {
      cwd: project,
      env,
    });
    expect(json.code, json.stderr).toBe(0);
    expectNoRawCodes(json.stdout);
    // Still the judge's words, as JSON carries them.
    expect(json.stdout).toContain('\\u001b]52;c;');
  });
});
