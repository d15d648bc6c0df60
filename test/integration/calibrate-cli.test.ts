/**
 * `autoresearch calibrate` as a user runs it (docs/design/judge-reliability.md): the built CLI,
 * offline with `--provider sim`, on the shipped examples and their labels.yaml — agreement with
 * intervals, calibration.json, a run of kind `calibrate` that `runs` lists and `show` displays,
 * `--json`, `--fail-under-kappa`, and bad labels refused at their line. Needs `npm run build`
 * first.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalibrationFile } from '../../src/calibrate/calibration-file.js';
import { RunEvent } from '../../src/run/events.js';
import { Manifest } from '../../src/run/manifest.js';
import {
  CLI_MAIN,
  cleanEnv,
  REPO_ROOT,
  requireBuiltCli,
  runBuiltCli,
  runFolders,
} from '../helpers/built-cli.js';

let work: string;
let runsDir: string;

beforeAll(async () => {
  requireBuiltCli();
  work = await mkdtemp(join(tmpdir(), 'ar-calibrate-'));
  runsDir = join(work, 'runs');
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  runBuiltCli([...args, '--runs-dir', runsDir], { cwd: REPO_ROOT, env: cleanEnv({ TZ: 'UTC' }) });

function readCalibration(runId: string): CalibrationFile {
  return CalibrationFile.parse(JSON.parse(readFileSync(join(runsDir, runId, 'calibration.json'), 'utf8')));
}

const INTERVAL = String.raw`-?\d\.\d\d \[-?\d\.\d\d, -?\d\.\d\d\]`;

describe('calibrate cold-email --provider sim', () => {
  let runId: string;

  it('prints agreement per criterion with 95% intervals and records a calibrate run', async () => {
    const result = await cli(['calibrate', 'cold-email', '--provider', 'sim']);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain("Calibration of cold-email's judge: 16 labelled outputs — simulated (judge)");
    expect(out).toContain('intervals: 95% percentile bootstrap, 2000 resamples, seed 1');
    expect(out).toMatch(/^criterion +n +exact +within one +kappa +spearman +mean human\/judge$/m);
    for (const criterion of ['clarity', 'relevance', 'curiosity']) {
      expect(out).toMatch(
        new RegExp(
          `^${criterion} +16 +${INTERVAL} +${INTERVAL} +${INTERVAL} +${INTERVAL} +\\d\\.\\d / \\d\\.\\d$`,
          'm',
        ),
      );
    }
    expect(out).toContain('Largest disagreements');
    expect(out).toMatch(/^Bias probes\n {2}\S/m);
    expect(out).toMatch(/^Lowest kappa -?\d\.\d\d \((clarity|relevance|curiosity)\): /m);

    const folders = runFolders(runsDir);
    expect(folders).toHaveLength(1);
    runId = folders[0] as string;
    const calibration = readCalibration(runId);
    expect(calibration).toMatchObject({
      runId,
      experiment: 'cold-email',
      labels: { file: 'experiments/cold-email/labels.yaml', count: 16 },
      simulated: ['judge'],
      grader: null,
      expectations: null,
      bootstrap: { resamples: 2000, level: 0.95, seed: 1 },
    });
    expect(calibration.outputs).toHaveLength(16);
    expect(calibration.outputs.every((o) => Object.keys(o.judge).length === 3)).toBe(true);
    expect(calibration.lowestKappa).not.toBeNull();

    const manifest = Manifest.parse(JSON.parse(readFileSync(join(runsDir, runId, 'manifest.json'), 'utf8')));
    expect(manifest.kind).toBe('calibrate');
    const events = readFileSync(join(runsDir, runId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => RunEvent.parse(JSON.parse(line)));
    expect(events.map((e) => e.type)).toEqual(['run_started', 'spend', 'calibrated', 'run_stopped']);
    expect(events[0]).toMatchObject({ kind: 'calibrate', simulated: ['judge'] });
    // The judging, then the probes: length judges plain and padded outputs, repeat three times.
    expect(events[1]).toMatchObject({ role: 'judge', calls: 16 + 2 * 16 + 3 * 16 });
    expect(calibration.probes?.map((p) => [p.probe, p.applicable])).toEqual([
      ['order', false],
      ['length', true],
      ['repeat', true],
    ]);
    expect(events[2]).toMatchObject({ labels: 16, lowestKappa: calibration.lowestKappa });
    expect(events[3]).toMatchObject({ reason: 'completed' });
  });

  it('is listed by runs and displayed by show', async () => {
    const listed = await cli(['runs', '--json']);
    expect(listed.code).toBe(0);
    const [run] = JSON.parse(listed.stdout) as { id: string; kind: string; calibration: unknown }[];
    expect(run).toMatchObject({ id: runId, kind: 'calibrate', status: 'finished' });
    expect(run?.calibration).toEqual({ labels: 16, lowestKappa: readCalibration(runId).lowestKappa });
    const table = await cli(['runs']);
    expect(table.stdout).toMatch(/min kappa -?\d\.\d\d \((clarity|relevance|curiosity)\) \(sim\)/);

    const shown = await cli(['show', runId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Calibration of cold-email's judge: 16 labelled outputs");
    expect(shown.stdout).toMatch(new RegExp(`^clarity +16 +${INTERVAL}`, 'm'));
    const json = await cli(['show', runId, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ run: { kind: 'calibrate' }, calibration: { runId } });
  });

  it('--json prints calibration.json; the same seed gives the same figures; --no-probes leaves probes null', async () => {
    const result = await cli(['calibrate', 'cold-email', '--provider', 'sim', '--json', '--no-probes']);
    expect(result.code).toBe(0);
    const printed = CalibrationFile.parse(JSON.parse(result.stdout));
    expect(printed.probes).toBeNull();
    expect(printed).toEqual(readCalibration(printed.runId));
    expect(printed.criteria).toEqual(readCalibration(runId).criteria);
  });

  it('--fail-under-kappa exits 1 below K and 2 for a K off the scale', async () => {
    const missed = await cli(['calibrate', 'cold-email', '--provider', 'sim', '--fail-under-kappa', '0.99']);
    expect(missed.code).toBe(1);
    expect(missed.stderr).toMatch(/fail-under-kappa: the lowest kappa, -?\d\.\d{3} \(\w+\), is below 0\.99/);
    const met = await cli(['calibrate', 'cold-email', '--provider', 'sim', '--fail-under-kappa', '-1']);
    expect(met.code).toBe(0);
    const bad = await cli(['calibrate', 'cold-email', '--provider', 'sim', '--fail-under-kappa', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--fail-under-kappa "2" is not a number between -1 and 1/);
  });
});

describe('calibrate with bad labels', () => {
  it('exits 2 naming each problem at file:line, and records nothing', async () => {
    const before = runFolders(runsDir).length;
    const labels = join(work, 'bad-labels.yaml');
    await writeFile(
      labels,
      [
        '- output: "ok"',
        '  scores: { clarity: 4 }',
        '- output: "typo"',
        '  scores: { clarty: 3 }',
        '- output: "off the scale"',
        '  scores: { clarity: 7 }',
        '',
      ].join('\n'),
    );
    const result = await cli(['calibrate', 'cold-email', '--provider', 'sim', '--labels', labels]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad-labels\.yaml:4:\d+/);
    expect(result.stderr).toContain('[1].scores.clarty');
    expect(result.stderr).toContain('did you mean `clarity`?');
    expect(result.stderr).toMatch(
      /bad-labels\.yaml:6:\d+ +\[2\]\.scores\.clarity +error: must be <= 5 \(got 7\)/,
    );
    expect(result.stderr).toContain('2 problems found; nothing was written.');
    expect(result.stdout).toBe('');
    expect(runFolders(runsDir)).toHaveLength(before);
  });

  it('exits 2 with a hint when the labels file is missing', async () => {
    const result = await cli([
      'calibrate',
      'cold-email',
      '--provider',
      'sim',
      '--labels',
      join(work, 'none.yaml'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/none\.yaml does not exist/);
    expect(result.stderr).toMatch(/hint: .*init/);
  });
});

describe('calibrate linkedin-post --provider sim', () => {
  it('measures the grader against the labelled expectations', async () => {
    const result = await cli(['calibrate', 'linkedin-post', '--provider', 'sim', '--json']);
    expect(result.code).toBe(0);
    const calibration = CalibrationFile.parse(JSON.parse(result.stdout));
    expect(calibration.simulated).toEqual(['judge', 'grader']);
    expect(calibration.grader).toMatch(/^sim/);
    const e = calibration.expectations;
    expect(e?.labels).toBe(7);
    expect((e?.tp ?? 0) + (e?.fp ?? 0) + (e?.tn ?? 0) + (e?.fn ?? 0)).toBe(7);
    const labelled = calibration.outputs.filter((o) => o.expectations.length > 0);
    expect(labelled.map((o) => o.case)).toEqual(
      expect.arrayContaining(['hard-promotion-rejected', 'hard-jargon-trap', 'hard-exact-figures']),
    );
  });
});

describe('calibrate with a program judge (process isolation)', () => {
  const FAULT_JUDGE = join(REPO_ROOT, 'test/fixtures/judges/fault-judge.mjs');

  /** An experiment whose judge scores each output by the "score:N" its text carries. */
  async function programExperiment(mode: string, ...args: string[]): Promise<string> {
    const dir = await mkdtemp(join(work, 'program-'));
    const files: Record<string, string> = {
      'experiment.yaml': [
        'name: program-calibrate',
        'prompt: prompt.md',
        'cases: cases.yaml',
        'rubric: rubric.md',
        'models:',
        '  generator: { provider: sim }',
        `  judge: { command: [node, ${[FAULT_JUDGE, mode, ...args].map((a) => JSON.stringify(a)).join(', ')}] }`,
        'judging: { isolation: process }',
        'search: { acceptance: margin }',
        '',
      ].join('\n'),
      'prompt.md': 'Write about {{topic}}.\n',
      'cases.yaml': '- id: one\n  vars: { topic: a }\n- id: two\n  vars: { topic: b }\n',
      'rubric.md': '# Rubric\n\n## Criteria\n\n### Clarity\n\nClear.\n\n### Depth\n\nDeep.\n',
      'labels.yaml': [1, 2, 3, 4, 5, 2, 4]
        .map((n, i) => `- output: "output ${i} score:${n}"\n  scores: { clarity: ${n}, depth: ${6 - n} }\n`)
        .join(''),
    };
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  }

  it('measures what the judge really said: perfect on one criterion, reversed on the other', async () => {
    const dir = await programExperiment('valid');
    const result = await cli(['calibrate', dir, '--json']);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    const calibration = CalibrationFile.parse(JSON.parse(result.stdout));
    expect(calibration.judge).toBe(`program: node ${FAULT_JUDGE} valid`);
    expect(calibration.simulated).toEqual([]);
    const [clarity, depth] = calibration.criteria;
    expect(clarity).toMatchObject({
      criterion: 'clarity',
      labels: 7,
      exact: { estimate: 1 },
      kappa: { estimate: 1 },
    });
    expect(depth?.kappa.estimate).toBeCloseTo(-1, 12);
    expect(depth?.spearman.estimate).toBeCloseTo(-1, 12);
    expect(calibration.lowestKappa).toEqual({ criterion: 'depth', kappa: expect.closeTo(-1, 12) });
  });

  it('Ctrl-C while the judge works exits 130 and journals the calibration as interrupted', async () => {
    // The hanging judge notes its grandchild's pid in this file.
    const dir = await programExperiment('hang', join(work, 'hang-judge.pid'));
    const before = new Set(runFolders(runsDir));
    const child = execa(process.execPath, [CLI_MAIN, 'calibrate', dir, '--runs-dir', runsDir], {
      cwd: REPO_ROOT,
      env: cleanEnv(),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    await new Promise<void>((resolve) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('calibrating')) resolve();
      });
    });
    // Give the judge program a moment to start, so the abort meets a running sandbox.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/nothing was measured/);
    const made = runFolders(runsDir).filter((f) => !before.has(f));
    expect(made).toHaveLength(1);
    const last = readFileSync(join(runsDir, made[0] as string, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .at(-1);
    expect(RunEvent.parse(JSON.parse(last ?? '{}'))).toMatchObject({
      type: 'run_stopped',
      reason: 'interrupted',
    });
  });

  it('a failing judge exits 1 and the run is journaled as stopped by errors', async () => {
    const dir = await programExperiment('exit1');
    const before = new Set(runFolders(runsDir));
    const result = await cli(['calibrate', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: the judge failed: /);
    const made = runFolders(runsDir).filter((f) => !before.has(f));
    expect(made).toHaveLength(1);
    const events = readFileSync(join(runsDir, made[0] as string, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => RunEvent.parse(JSON.parse(line)));
    expect(events.at(-1)).toMatchObject({ type: 'run_stopped', reason: 'errors' });
    expect(events.some((e) => e.type === 'calibrated')).toBe(false);
  });
});
