/**
 * The example judge in docs/examples/judge/ must keep speaking the judge protocol: it runs
 * through the runner's own `runJudge` (sandbox, validation, recomputed scores) on the rubric
 * and outputs shipped beside it and on the repository's rubrics, and inside a real `eval`
 * configured exactly as docs/judge-and-grader.md shows.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { Rubric } from '../../src/experiment/types.js';
import { runJudge } from '../../src/judge/run-judge.js';
import { CLI_MAIN, cleanEnv, REPO_ROOT, requireBuiltCli } from '../helpers/built-cli.js';

const EXAMPLE_DIR = join(REPO_ROOT, 'docs/examples/judge');
const EXAMPLE = join(EXAMPLE_DIR, 'rules-judge.mjs');

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'docs-judge-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function loadRubric(path: string): Promise<Rubric> {
  const parsed = parseRubric(path, await readFile(path, 'utf8'));
  if (parsed.rubric === undefined)
    throw new Error(`${path} does not parse: ${JSON.stringify(parsed.problems)}`);
  return parsed.rubric;
}

async function exampleOutputs() {
  const dir = join(EXAMPLE_DIR, 'outputs');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.txt')).sort();
  return Promise.all(
    names.map(async (name, i) => ({
      caseId: `case-${i}`,
      sample: 0,
      text: await readFile(join(dir, name), 'utf8'),
    })),
  );
}

describe('docs/examples/judge/rules-judge.mjs', () => {
  it('passes the runner’s validation on the example rubric, and its own arithmetic matches the runner’s', async () => {
    const rubric = await loadRubric(join(EXAMPLE_DIR, 'rubric.md'));
    const outputs = await exampleOutputs();
    const result = await runJudge({
      outputs,
      rubric,
      judge: { command: ['node', EXAMPLE] },
      seed: 3,
      timeoutMs: 30_000,
      attempts: 1,
      tmpRoot: scratch,
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.perOutput.map((o) => o.caseId).sort()).toEqual(outputs.map((o) => o.caseId).sort());
    for (const scored of result.perOutput) {
      expect(Object.keys(scored.criteria).sort()).toEqual(['brevity', 'clarity']);
      expect(scored.reasoning).not.toBe('');
    }
    // The padded one-sentence output is the least clear; the short stepwise one the clearest.
    const clarity = Object.fromEntries(result.perOutput.map((o) => [o.caseId, o.criteria['clarity']]));
    expect(clarity['case-1']).toBe(1);
    expect(clarity['case-0']).toBe(5);
    const raw = result.raw as { quality_score: number };
    expect(raw.quality_score).toBeCloseTo(result.qualityScore, 10);
  });

  it('finds the criterion keys of every rubric the repository ships, as the runner does', async () => {
    const rubricsDir = join(REPO_ROOT, 'rubrics');
    const files = (await readdir(rubricsDir)).filter((n) => n.endsWith('.md'));
    expect(files.length).toBeGreaterThan(0);
    const outputs = await exampleOutputs();
    for (const file of files) {
      const rubric = await loadRubric(join(rubricsDir, file));
      const result = await runJudge({
        outputs,
        rubric,
        judge: { command: ['node', EXAMPLE] },
        seed: 1,
        timeoutMs: 30_000,
        attempts: 1,
        tmpRoot: scratch,
      });
      if (!result.ok) throw new Error(`${file}: ${result.message}`);
      expect(Object.keys(result.criteriaAverages).sort(), file).toEqual(
        rubric.criteria.map((c) => c.key).sort(),
      );
    }
  });

  it('reads numbered headings and ignores headings inside code fences', async () => {
    const text = [
      '# Rubric',
      '## Criteria',
      '### 1. Audience Fit',
      'weight: 2',
      '```markdown',
      '### Not a criterion',
      '```',
      '### 2) Clarity',
      '## Notes',
      '### Also not a criterion',
    ].join('\n');
    const rubric = parseRubric(join(scratch, 'numbered.md'), text).rubric as Rubric;
    expect(rubric.criteria.map((c) => c.key)).toEqual(['audience_fit', 'clarity']);
    const result = await runJudge({
      outputs: await exampleOutputs(),
      rubric,
      judge: { command: ['node', EXAMPLE] },
      seed: 2,
      timeoutMs: 30_000,
      attempts: 1,
      tmpRoot: scratch,
    });
    if (!result.ok) throw new Error(result.message);
    expect(Object.keys(result.criteriaAverages).sort()).toEqual(['audience_fit', 'clarity']);
  });

  it('prints the JUDGE line when run by hand in a folder laid out like the sandbox', async () => {
    const dir = await mkdtemp(join(scratch, 'by-hand-'));
    await cp(join(EXAMPLE_DIR, 'outputs'), join(dir, 'outputs'), { recursive: true });
    await cp(join(EXAMPLE_DIR, 'rubric.md'), join(dir, 'rubric.md'));
    const run = await execa(process.execPath, [EXAMPLE], { cwd: dir, reject: false });
    expect(run.exitCode).toBe(0);
    const written = JSON.parse(await readFile(join(dir, 'judge-scores.json'), 'utf8')) as {
      quality_score: number;
    };
    expect(run.stdout.trim()).toBe(`JUDGE quality_score=${written.quality_score.toFixed(4)}`);
  });

  it('judges a real `eval` when configured as models.judge.command, its path relative to the experiment', async () => {
    requireBuiltCli();
    const project = await mkdtemp(join(scratch, 'project-'));
    const env = cleanEnv();
    const cli = (args: string[]) =>
      execa(process.execPath, [CLI_MAIN, ...args], { cwd: project, env, extendEnv: false, reject: false });
    expect((await cli(['init', 'my-prompt'])).exitCode).toBe(0);
    await cp(EXAMPLE, join(project, 'judges/rules-judge.mjs'));
    const file = join(project, 'experiments/my-prompt/experiment.yaml');
    const yaml = (await readFile(file, 'utf8'))
      .replace(/^ {2}generator: .*$/m, '  generator: { provider: sim }')
      .replace(
        /^ {2}# judge: \{ command: .*$/m,
        '  judge: { command: [node, ../../judges/rules-judge.mjs], timeout_s: 60 }',
      );
    expect(yaml).toContain('judge: { command: [node, ../../judges/rules-judge.mjs]');
    await writeFile(file, yaml);
    const result = await cli(['eval', 'my-prompt', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      status: string;
      splits: { all: { signals: { judge: number | null }; criteria: Record<string, number> } };
    };
    expect(report.status).toBe('ok');
    expect(report.splits.all.signals.judge).not.toBeNull();
    expect(Object.keys(report.splits.all.criteria).sort()).toEqual(['accuracy', 'audience_fit', 'clarity']);
  });
});
