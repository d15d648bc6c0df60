/**
 * The judge isolation audit: a spy judge records everything it can see, and the
 * test checks that the sandbox held only the outputs and the rubric, and that nothing it was
 * given names the experiment, the iteration, the prompt, the scores or the user's key.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { Rubric } from '../../src/experiment/types.js';
import { runJudge } from '../../src/judge/run-judge.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';

const SPY = resolve('test/fixtures/judges/spy-judge.mjs');
const EXPERIMENT = 'zephyr-outreach-experiment';
const PROMPT = 'You are Zephyr, write a cold email that mentions the quarterly-lighthouse-offer.';
const USER_KEY = 'sk-ant-api03-USER-SECRET-KEY-4f9a2b';
const OPENAI_KEY = 'sk-proj-USER-OPENAI-SECRET-88aa';
const RUBRIC = `# Rubric\n\n## Criteria\n\n### Clarity\nIs it clear?\n\n### Tone\nIs it friendly?\n`;

interface SpyRecord {
  argv: string[];
  execArgv: string[];
  cwd: string;
  home: string;
  env: Record<string, string>;
  cwdFiles: { path: string; text: string }[];
  homeFiles: { path: string; text: string }[];
  proxy: {
    withToken: { status: number; body: { content?: { text: string }[] } };
    withoutToken: { status: number };
    wrongToken: { status: number };
  } | null;
}

let project: string;
let pool: ModelPool;
let rubric: Rubric;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'isolation-project-'));
  const experimentDir = join(project, 'experiments', EXPERIMENT);
  await mkdir(experimentDir, { recursive: true });
  await writeFile(join(experimentDir, 'prompt.md'), PROMPT);
  await writeFile(join(project, 'results.tsv'), 'iteration\tscore\n7\t0.8123\n');
  rubric = parseRubric(join(project, 'rubric.md'), RUBRIC).rubric as Rubric;
  pool = createModelPool({ models: { judge: { provider: 'sim' } }, concurrency: 2, env: {} });
});

afterAll(async () => {
  await pool.close();
  await rm(project, { recursive: true, force: true });
});

describe('judge isolation audit', () => {
  it('gives the judge only the outputs and the rubric, and nothing that reveals the run', async () => {
    const runnerEnv = {
      ...process.env,
      ANTHROPIC_API_KEY: USER_KEY,
      OPENAI_API_KEY: OPENAI_KEY,
      AUTORESEARCH_EXPERIMENT: EXPERIMENT,
      AUTORESEARCH_ITERATION: '7',
      AUTORESEARCH_PROMPT: PROMPT,
      AUTORESEARCH_RUNS_DIR: join(project, 'runs'),
      INIT_CWD: join(project, 'experiments', EXPERIMENT),
    };
    const outputs = [
      { caseId: 'case-acme-cto', sample: 0, text: 'Hi Dana, we cut month-end close to 2 days.' },
      { caseId: 'case-acme-cto', sample: 1, text: 'Hello Dana, quick question about your close.' },
      { caseId: 'case-globex-cfo', sample: 0, text: 'Dear CFO, invoices are slow; we fix that.' },
    ];
    const result = await runJudge({
      outputs,
      rubric,
      judge: { command: ['node', SPY] },
      client: pool.client('judge'),
      seed: 7,
      timeoutMs: 30_000,
      env: runnerEnv,
      commandCwd: project,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const spy = (result.raw as { spy: SpyRecord }).spy;

    // The sandbox held exactly the outputs and the rubric, under neutral names.
    expect(spy.cwdFiles.map((f) => f.path).sort()).toEqual([
      'outputs/',
      'outputs/output_00.txt',
      'outputs/output_01.txt',
      'outputs/output_02.txt',
      'rubric.md',
    ]);
    expect(spy.cwdFiles.find((f) => f.path === 'rubric.md')?.text).toBe(RUBRIC);
    expect(
      spy.cwdFiles
        .filter((f) => f.path.endsWith('.txt'))
        .map((f) => f.text)
        .sort(),
    ).toEqual(outputs.map((o) => o.text).sort());
    // HOME is an empty folder outside the sandbox.
    expect(spy.homeFiles).toEqual([]);
    expect(spy.home.startsWith(spy.cwd)).toBe(false);

    // Only allow-listed variables, the proxy address and the one-time token.
    const allowed =
      /^(PATH|Path|PATHEXT|LANG|LANGUAGE|LC_\w+|TZ|TMPDIR|TMP|TEMP|SystemRoot|SYSTEMROOT|SystemDrive|windir|ComSpec|NO_COLOR|HOME|USERPROFILE|ANTHROPIC_BASE_URL|OPENAI_BASE_URL|ANTHROPIC_API_KEY|OPENAI_API_KEY)$/;
    const names = Object.keys(spy.env).filter((name) => !/^(PWD|SHLVL|_|OLDPWD)$/.test(name));
    for (const name of names) expect(name).toMatch(allowed);
    expect(spy.env['ANTHROPIC_BASE_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(spy.env['OPENAI_BASE_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(spy.env['ANTHROPIC_API_KEY']).not.toBe(USER_KEY);
    expect(spy.env['ANTHROPIC_API_KEY']).toBe(spy.env['OPENAI_API_KEY']);

    // Nothing it was given names the experiment, iteration, prompt, scores, cases or keys.
    const given = JSON.stringify({
      env: spy.env,
      argv: spy.argv,
      execArgv: spy.execArgv,
      cwd: spy.cwd,
      home: spy.home,
    });
    for (const secret of [
      EXPERIMENT,
      'zephyr',
      PROMPT,
      'lighthouse',
      USER_KEY,
      OPENAI_KEY,
      'case-acme',
      'globex',
      '0.8123',
      'results.tsv',
      project,
    ]) {
      expect(given).not.toContain(secret);
    }
    expect(spy.argv.slice(1)).toEqual([SPY]);
    for (const file of [...spy.cwdFiles, ...spy.homeFiles]) {
      expect(file.text).not.toContain('quarterly-lighthouse-offer');
      expect(file.path).not.toMatch(/zephyr|acme|globex/);
    }

    // The proxy serves the token and refuses anyone without it.
    expect(spy.proxy?.withToken.status).toBe(200);
    expect(spy.proxy?.withToken.body.content?.[0]?.text).toEqual(expect.any(String));
    expect(spy.proxy?.withoutToken.status).toBe(401);
    expect(spy.proxy?.wrongToken.status).toBe(401);

    // The sandbox and the temporary HOME are gone; the map leads back to the cases.
    expect(existsSync(spy.cwd)).toBe(false);
    expect(existsSync(spy.home)).toBe(false);
    expect(result.map.map((m) => `${m.case_id}.${m.sample}`).sort()).toEqual([
      'case-acme-cto.0',
      'case-acme-cto.1',
      'case-globex-cfo.0',
    ]);
    expect(result.perOutput.every((o) => o.criteria['clarity'] === 3 && o.criteria['tone'] === 3)).toBe(true);
    expect(result.qualityScore).toBeCloseTo(0.6);
  });
});
