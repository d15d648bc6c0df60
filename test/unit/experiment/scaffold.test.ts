import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LABELS_FILE, readLabels } from '../../../src/calibrate/labels.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { EXPERIMENT_NAME, scaffoldExperiment } from '../../../src/experiment/scaffold.js';

const root = mkdtempSync(join(tmpdir(), 'ar-scaffold-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeScaffold(name: string): void {
  for (const file of scaffoldExperiment(name)) {
    mkdirSync(dirname(join(root, file.path)), { recursive: true });
    writeFileSync(join(root, file.path), file.text);
  }
}

describe('scaffoldExperiment', () => {
  writeScaffold('my-first');

  it('writes the experiment folder and a rubric under rubrics/', () => {
    expect(scaffoldExperiment('x').map((f) => f.path)).toEqual([
      'experiments/x/experiment.yaml',
      'experiments/x/prompt.md',
      'experiments/x/cases.yaml',
      'experiments/x/labels.yaml',
      'rubrics/x.md',
    ]);
  });

  it('writes a labels template that calibrate reads cleanly, for the rubric it writes', async () => {
    const { experiment } = await loadExperiment('my-first', { cwd: root, env: {} });
    const { labels, warnings } = await readLabels(join(experiment.dir, LABELS_FILE), { experiment });
    expect(warnings).toEqual([]);
    expect(labels.length).toBeGreaterThanOrEqual(3);
    const keys = experiment.rubric?.criteria.map((c) => c.key).sort();
    for (const label of labels) expect(Object.keys(label.scores).sort()).toEqual(keys);
    expect(labels.some((l) => l.expectations.length > 0)).toBe(true);
  });

  it('validates as is, with a missing API key only a warning', async () => {
    const { experiment, problems } = await loadExperiment('my-first', { cwd: root, env: {} });
    expect(problems.map((p) => [p.severity, p.message])).toEqual([
      ['warning', 'ANTHROPIC_API_KEY is not set (needed by generator, mutator, judge, grader)'],
    ]);
    expect(experiment.name).toBe('my-first');
    expect(experiment.models.generator.provider).toBe('anthropic');
    const withKey = await loadExperiment('my-first', { cwd: root, env: { ANTHROPIC_API_KEY: 'k' } });
    expect(withKey.problems).toEqual([]);
  });

  it('has enough varied cases to detect a gain of about 0.12, a quarter of them in holdout through the share', async () => {
    const { experiment } = await loadExperiment('my-first', { cwd: root, env: {} });
    expect(experiment.cases.length).toBe(16);
    expect(experiment.cases.filter((c) => c.split === 'holdout')).toHaveLength(4);
    const raw = parse(scaffoldExperiment('x')[2]?.text ?? '') as { split?: string }[];
    expect(raw.some((c) => c.split !== undefined)).toBe(false);
    expect(new Set(experiment.cases.map((c) => c.vars['audience'])).size).toBe(experiment.cases.length);
  });

  it('has a rubric with 2–3 criteria, each with what it measures and a 1–5 table', async () => {
    const { experiment } = await loadExperiment('my-first', { cwd: root, env: {} });
    const criteria = experiment.rubric?.criteria ?? [];
    expect(criteria.length).toBeGreaterThanOrEqual(2);
    expect(criteria.length).toBeLessThanOrEqual(3);
    const sections = (experiment.rubric?.text ?? '').split(/^### /m).slice(1);
    expect(sections).toHaveLength(criteria.length);
    for (const section of sections) {
      expect(section).toContain('What it measures:');
      for (const score of [1, 2, 3, 4, 5]) expect(section).toMatch(new RegExp(`^\\| ${score} \\|`, 'm'));
    }
  });

  it('explains every top-level key with a comment', () => {
    const text = scaffoldExperiment('x')[0]?.text ?? '';
    const keys = Object.keys(parse(text) as object);
    expect(keys).toEqual([
      'name',
      'description',
      'prompt',
      'cases',
      'rubric',
      'models',
      'checks',
      'scoring',
      'search',
      'budget',
      'concurrency',
    ]);
    const lines = text.split('\n');
    for (const key of keys) {
      const at = lines.findIndex((l) => l.startsWith(`${key}:`));
      const explained =
        lines[at]?.includes('#') ||
        lines[at + 1]?.trim().startsWith('#') ||
        lines[at - 1]?.trim().startsWith('#');
      expect(explained, key).toBe(true);
    }
  });
});

describe('EXPERIMENT_NAME', () => {
  it('accepts names the schema accepts and refuses the rest', () => {
    for (const good of ['cold-email', 'a', 'v2', '2024-test']) expect(EXPERIMENT_NAME.test(good)).toBe(true);
    for (const bad of ['', 'Cold', 'a_b', '-x', 'a b', '../x', 'x'.repeat(65)])
      expect(EXPERIMENT_NAME.test(bad)).toBe(false);
  });
});
