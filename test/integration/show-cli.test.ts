/**
 * `show`, `diff`, `runs` and `report` through the built CLI on fixture runs, as a person sees
 * them without colour (NO_COLOR, not a TTY, UTC). Needs `npm run build` first.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_RUN_ID, writeFixtureRun } from '../helpers/fixture-run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
let runsDir: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
  runsDir = await mkdtemp(join(tmpdir(), 'ar-show-cli-'));
  await writeFixtureRun(runsDir);
  await writeFixtureRun(runsDir, { scenario: 'sparse', running: true });
});
afterAll(async () => {
  if (runsDir) await rm(runsDir, { recursive: true, force: true });
});

function run(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, AUTORESEARCH_RUNS_DIR: runsDir, NO_COLOR: '1', TZ: 'UTC' };
  delete env['FORCE_COLOR'];
  return execa(process.execPath, [cli, ...args], { env, cwd: runsDir, reject: false });
}

describe('autoresearch show', () => {
  it('prints the header and iteration table of a run named by an id prefix', async () => {
    const result = await run('show', '20261129');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatchInlineSnapshot(`
      "Run         20261129-2230-cold-email-k3f9 (run of cold-email)
      Status      finished: iterations (reached the iteration budget (7))
      Train       0.429 → 0.922 (+0.493) at iteration 5, fresh final evaluation
      Holdout     0.433 → 0.927 (+0.494) at iteration 5, fresh final evaluation
      During run  train 0.433 → 0.933, holdout 0.433 → 0.933
      Noise       ±0.033 train, ±0.005 holdout
      Cost        $0.46 over 74 calls, 3m 53s active
      Ledger      generator  33 calls; $0.2663
                  mutator    8 calls; $0.0978
                  judge      33 calls; $0.0968
      Branch      autoresearch/cold-email/20261129-2230-cold-email-k3f9
      Iterations  7 finished: 2 keep, 1 discard, 1 gate_fail, 1 holdout_fail, 1 duplicate, 1 error

      ITER  STATUS        TRAIN  HOLDOUT   DELTA  CHECKS  JUDGE  EXPECT   COST  HYPOTHESIS
         0  baseline      0.433    0.433       -   0.750  0.333   0.000  $0.09  the starting prompt
         1  keep          0.600    0.700  +0.167   0.750  0.500   0.500  $0.05  Open with the recipient's…
         2  discard       0.433    0.533  -0.167   0.500  0.333   0.500  $0.05  Add social proof: three c…
         3  gate_fail     0.500    0.600  -0.100   0.500  0.500   0.500  $0.05  Drop the subject line so …
         4  error             -        -       -       -      -       -  $0.05  judge_error: judge-scores…
         5  keep          0.933    0.933  +0.333   1.000  0.833   1.000  $0.07  Cut buzzwords and end wit…
         6  duplicate         -        -       -       -      -       -  $0.05  Add social proof: three c…
         7  holdout_fail  0.967    0.567  +0.033   1.000  0.917   1.000  $0.05  Mention the prospect's co…"
    `);
  });

  it('prints a stable JSON shape with --json', async () => {
    const result = await run('show', FIXTURE_RUN_ID, '--json');
    const json = JSON.parse(result.stdout);
    expect(json.format).toBe('autoresearch.show/v1');
    expect(json.run).toMatchObject({
      id: FIXTURE_RUN_ID,
      status: 'finished',
      iterations: 7,
      best: { iteration: 5 },
    });
    expect(json.iterations.map((i: { status: string }) => i.status)).toEqual([
      'baseline',
      'keep',
      'discard',
      'gate_fail',
      'error',
      'keep',
      'duplicate',
      'holdout_fail',
    ]);
  });

  it('shows one iteration in full: hypothesis, decision, per-case scores by split, what each case lost', async () => {
    const result = await run('show', FIXTURE_RUN_ID, '7');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Iteration {4}7: holdout_fail/);
    expect(result.stdout).toContain('Scores       train 0.967 (Δ +0.033) · holdout 0.567 · best 0.933');
    // The holdout case that cost the keep, with the judge's reasons and the unmet expectation.
    expect(result.stdout).toContain(
      'bank-cfo (holdout)\n  judge 2.67/5 (call_to_action 5, clarity 2, personalization 1)',
    );
    expect(result.stdout).toContain('✗ expectation: Names one concrete pain of the month-end close');
    expect(result.stdout).toContain('Hypothesis   Mention the prospect');
    const json = JSON.parse((await run('show', FIXTURE_RUN_ID, '7', '--json')).stdout);
    expect(json.record).toMatchObject({ iteration: 7, status: 'holdout_fail' });
    const missing = await run('show', FIXTURE_RUN_ID, '12');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('error: this run has no iteration 12');
    expect(missing.stderr).toContain('hint: its iterations are 0 to 7');
  });

  it('exits 2 with a hint for an unknown run', async () => {
    const result = await run('show', 'nope');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('error: no run matches "nope"');
    expect(result.stderr).toContain(
      'hint: recent runs: 20261129-2230-cold-email-k3f9, 20261128-0915-cold-email-s1p2',
    );
  });
});

describe('autoresearch diff', () => {
  it('diffs baseline → best by default', async () => {
    const result = await run('diff', '20261129');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatchInlineSnapshot(`
      "--- baseline (iteration 0)
      +++ best (iteration 5)
      @@ -1,7 +1,6 @@
       Write a cold email to {{name}}, {{role}} at {{company}}.
       
       Start with a line "Subject: ..." naming their problem.
      -Introduce Ledgerly, our billing platform, in the first sentence.
      -Sound innovative: mention synergy and how we leverage best-in-class workflows.
      -Close by asking them to reply if interested.
      +Open with their own pain: {{pain}}.
      +End with one question proposing a 15-minute call next Tuesday.
       Keep it under 120 words. Sign as Dana."
    `);
  });

  it('compares one iteration with its parent, and any two with --word', async () => {
    expect((await run('diff', '20261129', '7')).stdout).toMatchInlineSnapshot(`
      "--- iteration 5 (keep)
      +++ iteration 7 (holdout_fail)
      @@ -2,5 +2,6 @@
       
       Start with a line "Subject: ..." naming their problem.
       Open with their own pain: {{pain}}.
      +Repeat {{company}} in every paragraph.
       End with one question proposing a 15-minute call next Tuesday.
       Keep it under 120 words. Sign as Dana."
    `);
    expect((await run('diff', '20261129', 'baseline', '5', '--word')).stdout).toMatchInlineSnapshot(`
      "--- baseline (iteration 0)
      +++ iteration 5 (keep)
      Write a cold email to {{name}}, {{role}} at {{company}}.

      Start with a line "Subject: ..." naming their problem.
      [-Introduce Ledgerly, our billing platform, in the first sentence.
      Sound innovative-]{+Open with their own pain+}: [-mention synergy and how we leverage best-]{+{{pain}}.
      End with one question proposing a 15+}-[-in-class workflows-]{+minute call next Tuesday+}.
      [-Close by asking them to reply if interested.
      -]Keep it under 120 words. Sign as Dana."
    `);
  });

  it('gives the prompts and hunks with --json', async () => {
    const json = JSON.parse((await run('diff', '20261129', '2', 'best', '--json')).stdout);
    expect(json).toMatchObject({
      format: 'autoresearch.diff/v1',
      from: { label: 'iteration 2 (discard)', iteration: 2 },
      to: { label: 'best (iteration 5)', iteration: 5 },
      identical: false,
    });
    expect(json.to.text).toContain('End with one question');
    expect(json.hunks[0].lines).toContainEqual({
      op: 'add',
      text: 'End with one question proposing a 15-minute call next Tuesday.',
    });
  });

  it('refuses what does not exist, with exit 2', async () => {
    const missing = await run('diff', '20261129', '12');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('the run has no iteration 12');
    const word = await run('diff', '20261129', 'latest');
    expect(word.exitCode).toBe(2);
    expect(word.stderr).toContain('"latest" does not name a prompt');
  });
});

describe('autoresearch runs', () => {
  it('lists the fixture runs', async () => {
    const result = await run('runs');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatchInlineSnapshot(`
      "RUN                            EXPERIMENT  STATUS    ITERS  BASELINE -> BEST       COST  STOP
      20261129-2230-cold-email-k3f9  cold-email  finished      7  0.433 -> 0.933        $0.46  iteration…
      20261128-0915-cold-email-s1p2  cold-email  crashed       2  0.750 -> 1.000 (sim)  $0.14  no stop r…
      (not shown at this width: KIND, STARTED; widen the terminal or use --json)"
    `);
  });
});

describe('autoresearch report', () => {
  it('writes report.html and says where', async () => {
    const result = await run('report', '20261128');
    expect(result.exitCode).toBe(0);
    const file = join(runsDir, '20261128-0915-cold-email-s1p2', 'report.html');
    expect(result.stdout.split('\n')[0]).toBe(`Wrote ${file}`);
    expect(await readFile(file, 'utf8')).toContain('<script type="application/json" id="report-data">');
  });

  it('refuses --port without --serve', async () => {
    const result = await run('report', '20261128', '--port', '8080');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--port only applies with --serve');
  });
});

describe('a damaged evaluation.json', () => {
  it('show and report name the file cut short instead of silently showing less', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ar-show-damaged-'));
    try {
      await writeFixtureRun(dir);
      const record = join(dir, FIXTURE_RUN_ID, 'iterations/0001/candidates/0/evaluation.json');
      await mkdir(dirname(record), { recursive: true });
      const whole = JSON.stringify({ evaluation: { cases: [{ id: 'saas-cto', split: 'train' }] } });
      await writeFile(record, whole.slice(0, whole.length / 2));
      const warning = `warning: ${record} is cut short (truncated after ${Math.floor(whole.length / 2)} characters), so its record cannot be read`;
      const env: NodeJS.ProcessEnv = { ...process.env, AUTORESEARCH_RUNS_DIR: dir, NO_COLOR: '1', TZ: 'UTC' };
      delete env['FORCE_COLOR'];
      for (const command of ['show', 'report']) {
        const result = await execa(process.execPath, [cli, command, FIXTURE_RUN_ID], {
          env,
          cwd: dir,
          reject: false,
        });
        expect(result.exitCode).toBe(0);
        expect(result.stderr.split('\n')).toContain(warning);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
