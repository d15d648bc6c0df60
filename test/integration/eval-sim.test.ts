/**
 * `autoresearch eval` as a user and a CI job run it: the built CLI as a subprocess, offline
 * with `--provider sim`, on test/fixtures/eval/support-reply (rubric, global checks with a
 * gate, per-case checks, expectations, a holdout share). Needs `npm run build` first.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalReport } from '../../src/eval-command/eval-report.js';
import { RunEvent } from '../../src/run/events.js';
import { findAll, readXml } from '../fixtures/eval/read-xml.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const FIXTURE = join(ROOT, 'test/fixtures/eval/support-reply');
const CASE_IDS = [
  'refund-late',
  'login-broken',
  'feature-request',
  'cancel-plan',
  'slow-export',
  'invoice-address',
];

/** The environment without any real API key or endpoint, so nothing can reach the network. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /API_KEY|BASE_URL|AUTORESEARCH_|^DEBUG$|COLOR/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

async function cli(args: string[], cwd = work) {
  const result = await execa(process.execPath, [MAIN, ...args], {
    cwd,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
  });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

function runFolders(runsDir: string): string[] {
  return existsSync(runsDir) ? readdirSync(runsDir).filter((name) => !name.startsWith('.')) : [];
}

let work: string;
beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  work = mkdtempSync(join(tmpdir(), 'ar-eval-'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('eval --provider sim', () => {
  it('prints the breakdown, records a run of kind eval and writes JUnit XML', async () => {
    const runsDir = join(work, 'runs-a');
    const junit = join(work, 'ci', 'eval.xml');
    const { code, stdout, stderr } = await cli([
      'eval',
      FIXTURE,
      '--provider',
      'sim',
      '--runs-dir',
      runsDir,
      '--junit',
      junit,
      '--fail-under',
      '0',
    ]);
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    expect(stdout).toContain('simulated (generator, judge, grader)');
    expect(stdout).toMatch(/^Scores +split +total +checks +judge +expect\. +cases$/m);
    for (const split of ['train', 'holdout', 'all'])
      expect(stdout).toMatch(new RegExp(`^ +${split} +\\d\\.\\d{4} `, 'm'));
    expect(stdout).toMatch(/^Gates +all passed \(no-leftover-placeholders\)$/m);
    expect(stdout).toMatch(/^Criteria +1–5 +train +holdout +all$/m);
    expect(stdout).toMatch(/^ +helpfulness +\d\.\d\d +\d\.\d\d +\d\.\d\d$/m);
    expect(stdout).toMatch(/^ +short-enough +\d+% \d\/4 +\d+% \d\/2 +\d+% \d\/6$/m);
    expect(stdout).toMatch(/^Worst +\d\.\d{4} {2}[\w-]+ \((train|holdout)\) {2}\S/m);
    expect(stdout).toMatch(/^Cost +\$0\.0000 over 15 calls \(generator 6, judge 6, grader 3\)/m);
    expect(stdout).toMatch(/^Verdict +passed: --fail-under 0 \(all\)/m);

    const [runId] = runFolders(runsDir);
    expect(runId).toMatch(/^\d{8}-\d{4}-support-reply-[0-9a-z]{4}$/);
    expect(stdout).toContain(`Record      ${runId}`);
    const runDir = join(runsDir, runId as string);
    for (const file of [
      'manifest.json',
      'events.jsonl',
      'results.tsv',
      'best.md',
      'iterations/0000/decision.json',
    ]) {
      expect(existsSync(join(runDir, file)), file).toBe(true);
    }
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
    const candidate = join(runDir, 'iterations/0000/candidates/0');
    for (const file of [
      'prompt.md',
      'checks.json',
      'judge-scores.json',
      'judge-map.json',
      'evaluation.json',
    ]) {
      expect(existsSync(join(candidate, file)), file).toBe(true);
    }
    expect(readdirSync(join(candidate, 'outputs')).sort()).toEqual(
      CASE_IDS.map((id) => `${id}.0.txt`).sort(),
    );
    expect(readdirSync(join(candidate, 'grading')).sort()).toEqual([
      'invoice-address.json',
      'login-broken.json',
      'refund-late.json',
    ]);
    const prompt = readFileSync(join(FIXTURE, 'prompt.md'), 'utf8');
    expect(readFileSync(join(runDir, 'best.md'), 'utf8')).toBe(prompt);
    expect(readFileSync(join(candidate, 'prompt.md'), 'utf8')).toBe(prompt);
    expect(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'))).toMatchObject({
      kind: 'eval',
      runId,
      git: null,
    });

    const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => RunEvent.parse(JSON.parse(line)));
    const types = events.map((e) => e.type).filter((type) => type !== 'phase');
    expect(types).toEqual([
      'run_started',
      'iteration_started',
      'candidate_evaluated',
      'iteration_finished',
      'spend',
      'spend',
      'spend',
      'run_stopped',
    ]);
    expect(events[0]).toMatchObject({ kind: 'eval', simulated: ['generator', 'judge', 'grader'], git: null });
    expect(events.filter((e) => e.type === 'phase').map((e) => e.phase)).toEqual([
      'generating',
      'checking',
      'judging',
      'grading',
      'scoring',
    ]);
    expect(events.find((e) => e.type === 'candidate_evaluated')).toMatchObject({
      iteration: 0,
      candidate: 0,
      gateFailure: null,
    });
    expect(events.find((e) => e.type === 'iteration_finished')).toMatchObject({
      iteration: 0,
      status: 'baseline',
      candidate: 0,
    });
    expect(events.at(-1)).toMatchObject({ type: 'run_stopped', reason: 'completed' });
    const tsv = readFileSync(join(runDir, 'results.tsv'), 'utf8').trim().split('\n');
    expect(tsv).toHaveLength(2);
    const header = tsv[0]?.split('\t') ?? [];
    expect(tsv[1]?.split('\t')[header.indexOf('status')]).toBe('baseline');

    const runs = await cli(['runs', '--runs-dir', runsDir, '--json']);
    expect(runs.code).toBe(0);
    expect(JSON.parse(runs.stdout)).toEqual([
      expect.objectContaining({ id: runId, kind: 'eval', status: 'finished' }),
    ]);

    const suites = readXml(readFileSync(junit, 'utf8'));
    expect(suites.name).toBe('testsuites');
    expect(suites.attributes.tests).toBe('6');
    expect(findAll(suites, 'testsuite').map((s) => s.attributes.name)).toEqual([
      'support-reply.train',
      'support-reply.holdout',
    ]);
    const testcases = findAll(suites, 'testcase');
    expect(testcases.map((t) => t.attributes.name).sort()).toEqual([...CASE_IDS].sort());
    for (const testcase of testcases) {
      expect(testcase.attributes.classname).toBe('support-reply');
      expect(testcase.attributes.time).toMatch(/^\d+\.\d{3}$/);
    }
    const failures = testcases.flatMap((t) => findAll(t, 'failure'));
    expect(failures.length).toBe(Number(suites.attributes.failures));
    expect(failures.length).toBeGreaterThan(0);
    const refund = testcases.find((t) => t.attributes.name === 'refund-late');
    const refundFailure = refund && findAll(refund, 'failure')[0];
    expect(refundFailure?.text).toMatch(
      /^check icontains: refund failed \(sample 0\): output does not contain "refund"$/m,
    );
    expect(refundFailure?.text).toMatch(/^score \d\.\d{4} \(checks /m);
    const properties = findAll(findAll(suites, 'testsuite')[0] as never, 'property');
    expect(properties.map((p) => p.attributes.name)).toEqual(
      expect.arrayContaining([
        'run_id',
        'score.total',
        'score.checks',
        'score.judge',
        'criterion.helpfulness',
        'all.total',
      ]),
    );
  });

  it('--json prints the stable report; --fail-under 0.99 exits 1 and says by how much', async () => {
    const runsDir = join(work, 'runs-b');
    const { code, stdout, stderr } = await cli([
      'eval',
      FIXTURE,
      '--provider',
      'sim',
      '--runs-dir',
      runsDir,
      '--json',
      '--fail-under',
      '0.99',
    ]);
    expect(code).toBe(1);
    const report = EvalReport.parse(JSON.parse(stdout));
    expect(report).toMatchObject({ experiment: 'support-reply', status: 'ok', simulated: true, samples: 1 });
    expect(report.runId).toBe(runFolders(runsDir)[0]);
    const splits = report.splits;
    if (splits === null) throw new Error('no splits');
    expect([splits.train.cases, splits.holdout.cases, splits.all.cases]).toEqual([4, 2, 6]);
    expect(splits.all.signals.judge).not.toBeNull();
    expect(splits.holdout.signals.expectations).toBeNull();
    expect(Object.keys(splits.all.criteria)).toEqual(['helpfulness', 'tone']);
    expect(splits.all.checks.map((c) => c.name)).toEqual([
      'short-enough',
      'no-jargon',
      'ends-cleanly',
      'no-leftover-placeholders',
      'icontains: refund',
      'icontains-any: cancel, cancellation',
    ]);
    expect(report.cases.map((c) => c.id).sort()).toEqual([...CASE_IDS].sort());
    const total = splits.all.total as number;
    expect(report.failUnder).toEqual({
      split: 'all',
      threshold: 0.99,
      score: total,
      passed: false,
      reason: `the all score ${total.toFixed(4)} is below 0.9900 by ${(0.99 - total).toFixed(4)}`,
    });
    expect(stderr).toContain(`fail-under: the all score ${total.toFixed(4)} is below 0.9900`);
  });

  it('a gate failure fails --fail-under 0, and says so', async () => {
    const copy = join(work, 'gated');
    cpSync(FIXTURE, copy, { recursive: true });
    const cases = readFileSync(join(copy, 'cases.yaml'), 'utf8').replace(
      '- id: feature-request\n',
      '- id: feature-request\n  checks:\n    - { type: starts-with, value: "Subject:", gate: true, name: subject-first }\n',
    );
    writeFileSync(join(copy, 'cases.yaml'), cases);
    const { code, stdout, stderr } = await cli([
      'eval',
      copy,
      '--provider',
      'sim',
      '--runs-dir',
      join(work, 'runs-c'),
      '--fail-under',
      '0',
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Gates +FAILED: 1 gate failure/m);
    expect(stdout).toContain('subject-first on feature-request#0');
    expect(stderr).toContain('1 gate failure (a failed gate fails --fail-under whatever the score)');
  });
});

describe('eval interrupted', () => {
  it('Ctrl-C while judging exits 130 and journals the evaluation as interrupted', async () => {
    const runsDir = join(work, 'runs-int');
    const child = execa(
      process.execPath,
      [MAIN, 'eval', FIXTURE, '--provider', 'sim', '--runs-dir', runsDir],
      {
        cwd: work,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
      },
    );
    const journal = () => {
      const [id] = runFolders(runsDir);
      const file = id === undefined ? '' : join(runsDir, id, 'events.jsonl');
      return file !== '' && existsSync(file) ? readFileSync(file, 'utf8') : '';
    };
    // Wait (with a deadline) for the judge to be running, then interrupt like a user would.
    const deadline = Date.now() + 60_000;
    while (!journal().includes('"phase":"judging"') && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 25));
    }
    expect(journal()).toContain('"phase":"judging"');
    child.kill('SIGINT');
    const { exitCode, stderr } = await child;
    expect(exitCode).toBe(130);
    expect(stderr).toContain('nothing was scored');
    const events = journal()
      .trim()
      .split('\n')
      .map((line) => RunEvent.parse(JSON.parse(line)));
    expect(events.find((e) => e.type === 'iteration_finished')).toMatchObject({ status: 'interrupted' });
    expect(events.at(-1)).toMatchObject({ type: 'run_stopped', reason: 'interrupted' });
    const [runId] = runFolders(runsDir);
    expect(existsSync(join(runsDir, runId as string, 'run.lock'))).toBe(false);
  });
});

describe('eval refuses bad input before doing anything', () => {
  it('names the missing API key and exits 2', async () => {
    const runsDir = join(work, 'runs-d');
    const { code, stderr } = await cli(['eval', FIXTURE, '--runs-dir', runsDir]);
    expect(code).toBe(2);
    expect(stderr).toContain('ANTHROPIC_API_KEY is not set');
    expect(stderr).toContain('--provider sim');
    expect(runFolders(runsDir)).toEqual([]);
  });

  it.each(['2', 'high'])('--fail-under %s exits 2', async (value) => {
    const { code, stderr } = await cli([
      'eval',
      FIXTURE,
      '--provider',
      'sim',
      '--runs-dir',
      join(work, 'runs-e'),
      '--fail-under',
      value,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(`--fail-under "${value}" is not a number between 0 and 1`);
    expect(runFolders(join(work, 'runs-e'))).toEqual([]);
  });

  it('--split holdout on an experiment without holdout cases exits 2', async () => {
    const copy = join(work, 'no-holdout');
    cpSync(FIXTURE, copy, { recursive: true });
    const yaml = readFileSync(join(copy, 'experiment.yaml'), 'utf8').replace('holdout: 0.34', 'holdout: 0');
    writeFileSync(join(copy, 'experiment.yaml'), yaml);
    writeFileSync(
      join(copy, 'cases.yaml'),
      readFileSync(join(copy, 'cases.yaml'), 'utf8').replace('  split: holdout\n', ''),
    );
    const { code, stderr } = await cli([
      'eval',
      copy,
      '--provider',
      'sim',
      '--runs-dir',
      join(work, 'runs-f'),
      '--fail-under',
      '0.5',
      '--split',
      'holdout',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('this experiment has no holdout cases');
  });
});

describe('eval and the sealed test split', () => {
  /** The fixture with `feature-request` and `invoice-address` labelled `split: test`. */
  function withTestCases(name: string): string {
    const copy = join(work, name);
    cpSync(FIXTURE, copy, { recursive: true });
    const cases = readFileSync(join(copy, 'cases.yaml'), 'utf8')
      .replace('- id: feature-request\n', '- id: feature-request\n  split: test\n')
      .replace('- id: invoice-address\n', '- id: invoice-address\n  split: test\n');
    writeFileSync(join(copy, 'cases.yaml'), cases);
    return copy;
  }
  const TEST_IDS = ['feature-request', 'invoice-address'];

  it('--split test scores the test cases and no other; the default leaves them out', async () => {
    const copy = withTestCases('sealed');
    const runsDir = join(work, 'runs-t');
    const tested = await cli([
      'eval',
      copy,
      '--provider',
      'sim',
      '--runs-dir',
      runsDir,
      '--json',
      '--split',
      'test',
      '--fail-under',
      '0',
      '--junit',
      join(work, 'sealed.xml'),
    ]);
    expect(tested.code, tested.stderr).toBe(0);
    const suites = readXml(readFileSync(join(work, 'sealed.xml'), 'utf8'));
    expect(findAll(suites, 'testsuite').map((suite) => suite.attributes.name)).toEqual([
      'support-reply.test',
    ]);
    expect(tested.stderr).toContain('2 test cases × 1 sample');
    const report = EvalReport.parse(JSON.parse(tested.stdout));
    expect(report.cases.map((c) => [c.id, c.split]).sort()).toEqual(TEST_IDS.map((id) => [id, 'test']));
    expect(report.splits?.test?.cases).toBe(2);
    expect(report.splits?.test?.total).not.toBeNull();
    expect([report.splits?.train.cases, report.splits?.holdout.cases, report.splits?.all.cases]).toEqual([
      0, 0, 0,
    ]);
    expect(report.failUnder).toMatchObject({
      split: 'test',
      score: report.splits?.test?.total,
      passed: true,
    });
    // Only the test cases were generated.
    const [runId] = runFolders(runsDir);
    const outputs = readdirSync(
      join(runsDir, String(runId), 'iterations', '0000', 'candidates', '0', 'outputs'),
    );
    expect(outputs.map((name) => name.replace(/\.\d+\.txt$/, '')).sort()).toEqual(TEST_IDS);

    const text = await cli(['eval', copy, '--provider', 'sim', '--runs-dir', runsDir, '--split', 'test']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ +test +\d\.\d{4} /m);
    expect(text.stdout).not.toMatch(/^ +train +/m);

    const plain = await cli(['eval', copy, '--provider', 'sim', '--runs-dir', runsDir, '--json']);
    expect(plain.code, plain.stderr).toBe(0);
    const loop = EvalReport.parse(JSON.parse(plain.stdout));
    expect(loop.splits?.test).toBeUndefined();
    expect(loop.splits?.all.cases).toBe(4);
    for (const id of TEST_IDS) expect(loop.cases.map((c) => c.id)).not.toContain(id);
  });

  it('--split test without test cases, and an unknown split, exit 2', async () => {
    const none = await cli([
      'eval',
      FIXTURE,
      '--provider',
      'sim',
      '--runs-dir',
      join(work, 'runs-u'),
      '--split',
      'test',
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--split test: this experiment has no test cases');
    const unknown = await cli([
      'eval',
      FIXTURE,
      '--provider',
      'sim',
      '--runs-dir',
      join(work, 'runs-u'),
      '--split',
      'tset',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/'tset' is invalid.*train, holdout, test, all/s);
    expect(runFolders(join(work, 'runs-u'))).toEqual([]);
  });
});
