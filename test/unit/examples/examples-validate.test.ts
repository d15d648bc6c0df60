/**
 * Every example under experiments/ loads with no errors (docs/design/experiment-format.md): the
 * files users copy first must validate as shipped. Missing API keys are warnings, which is fine
 * here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LABELS_FILE, readLabels } from '../../../src/calibrate/labels.js';
import { ValidationError } from '../../../src/errors.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const EXPERIMENTS = join(ROOT, 'experiments');
const names = readdirSync(EXPERIMENTS).filter((name) => statSync(join(EXPERIMENTS, name)).isDirectory());
/** The examples we ship, held to their bar: 12+ varied cases, hard ones, a holdout, real providers. */
const ISSUE_9_EXAMPLES = ['cold-email', 'linkedin-post', 'ticket-triage'];

async function load(name: string) {
  try {
    return await loadExperiment(name, { cwd: ROOT, env: {} });
  } catch (error) {
    if (error instanceof ValidationError) {
      const lines = error.problems.map(
        (p) => `${p.location.file}:${p.location.line ?? 0} ${p.keyPath} ${p.message}`,
      );
      throw new Error(`experiments/${name} does not validate:\n${lines.join('\n')}`);
    }
    throw error;
  }
}

describe('example experiments', () => {
  it('ship the three examples', () => {
    expect(names).toEqual(expect.arrayContaining(ISSUE_9_EXAMPLES));
  });

  for (const name of names) {
    it(`${name}: with a judge or grader, it ships at least 12 labelled outputs that read cleanly (docs/design/judge-reliability.md)`, async () => {
      const { experiment } = await load(name);
      const graded = experiment.cases.some((c) => c.expectations.length > 0);
      if (experiment.rubric === undefined && !graded) return;
      const { labels, warnings } = await readLabels(join(experiment.dir, LABELS_FILE), { experiment });
      expect(warnings).toEqual([]);
      expect(labels.length).toBeGreaterThanOrEqual(12);
      if (experiment.rubric === undefined) {
        // Only a grader to measure: verdicts of both kinds, or TPR and TNR cannot both be read.
        const verdicts = labels.flatMap((l) => l.expectations.map((e) => e.pass));
        expect(verdicts).toContain(true);
        expect(verdicts).toContain(false);
        return;
      }
      // Labels that span the scale: a judge can only show it tells good from bad on outputs that differ.
      for (const criterion of experiment.rubric.criteria) {
        const given = labels.map((l) => l.scores[criterion.key]).filter((s) => s !== undefined);
        expect(given.length).toBeGreaterThanOrEqual(12);
        expect(Math.max(...given) - Math.min(...given)).toBeGreaterThanOrEqual(3);
      }
    });

    it(`${name} loads with no errors; the only warnings are missing API keys`, async () => {
      const { experiment, problems } = await load(name);
      expect(experiment.name).toBe(name);
      for (const problem of problems) expect(problem.message).toMatch(/_API_KEY is not set/);
    });
  }

  for (const name of ISSUE_9_EXAMPLES) {
    describe(name, () => {
      it('has at least 12 cases, some marked hard, and a holdout share', async () => {
        const { experiment } = await load(name);
        expect(experiment.cases.length).toBeGreaterThanOrEqual(12);
        expect(experiment.cases.filter((c) => c.id.startsWith('hard-')).length).toBeGreaterThanOrEqual(3);
        const holdout = experiment.cases.filter((c) => c.split === 'holdout');
        expect(holdout.length).toBeGreaterThan(0);
        expect(holdout.length).toBeLessThan(experiment.cases.length);
      });

      it('is configured for a real provider, with commented alternatives', async () => {
        const { experiment } = await load(name);
        expect(experiment.models.generator.provider).toBe('anthropic');
        const text = readFileSync(experiment.file, 'utf8');
        expect(text).toMatch(/^\s*# .*provider: openai, model: /m);
        expect(text).toMatch(/^\s*# .*provider: openai, .*base_url: "http:\/\/127\.0\.0\.1:\d+\/v1"/m);
        expect(text).toMatch(/^\s*# .*provider: claude-cli/m);
      });
    });
  }
});

describe('linkedin-post', () => {
  it('is judged on the four criteria of its rubric and gates on hashtags', async () => {
    const { experiment } = await load('linkedin-post');
    expect(experiment.rubric?.criteria.map((c) => c.key)).toEqual([
      'emotional_resonance',
      'authenticity',
      'narrative_arc',
      'actionability',
    ]);
    expect(experiment.checks.find((c) => c.gate)?.name).toBe('at-most-3-hashtags');
  });
});

describe('ticket-triage', () => {
  it('gates on is-json with a schema and grades expectations on every case', async () => {
    const { experiment } = await load('ticket-triage');
    const gate = experiment.checks.find((c) => c.gate);
    expect(gate?.type).toBe('is-json');
    expect(gate?.value).toMatchObject({ required: ['category', 'priority', 'summary', 'needs_human'] });
    expect(experiment.cases.every((c) => c.expectations.length > 0)).toBe(true);
    expect(experiment.models.grader).toBeDefined();
  });
});

/** The prompt-shape examples, with exactly one optimised part (this version). */
describe('support-bot', () => {
  it('optimises the system prompt alone, beside a fixed account note, over multi-turn conversations', async () => {
    const { experiment } = await load('support-bot');
    expect(experiment.shape.parts.map((p) => [p.name, p.optimise])).toEqual([
      ['system', true],
      ['messages[0]', false],
    ]);
    expect(experiment.promptPath).toMatch(/system\.md$/);
    expect(experiment.cases.length).toBeGreaterThanOrEqual(12);
    expect(experiment.cases.every((c) => (c.messages?.length ?? 0) > 0)).toBe(true);
    const multiTurn = experiment.cases.filter((c) => c.messages?.some((m) => m.role === 'assistant'));
    expect(multiTurn.length).toBeGreaterThanOrEqual(3);
    expect(experiment.cases.filter((c) => c.id.startsWith('hard-')).length).toBeGreaterThanOrEqual(3);
    expect(experiment.cases.some((c) => c.split === 'holdout')).toBe(true);
  });

  it('is judged with each conversation in hand, and gates on refund promises', async () => {
    const { experiment } = await load('support-bot');
    expect(experiment.config.judging.inputs).toBe(true);
    expect(experiment.rubric?.criteria.length).toBeGreaterThanOrEqual(3);
    expect(experiment.checks.find((c) => c.gate)?.name).toBe('no-refund-promises');
  });
});

describe('invoice-extract', () => {
  it('answers in its schema, offers lookup_vendor and optimises only the system prompt', async () => {
    const { experiment } = await load('invoice-extract');
    expect(experiment.shape.parts.map((p) => [p.name, p.optimise])).toEqual([
      ['system', true],
      ['messages[0]', false],
    ]);
    expect(experiment.shape.output?.schema).toMatchObject({
      required: expect.arrayContaining(['vendor_id', 'date', 'currency', 'line_items', 'total']),
    });
    expect(experiment.shape.tools?.definitions.map((t) => t.name)).toEqual(['lookup_vendor']);
  });

  it('expects the lookup where none was made, and the record without a second lookup after the reply', async () => {
    const { experiment } = await load('invoice-extract');
    const fresh = experiment.cases.filter((c) => c.messages === undefined);
    const answered = experiment.cases.filter((c) => c.messages !== undefined);
    expect(experiment.cases.length).toBeGreaterThanOrEqual(12);
    expect(fresh.length).toBeGreaterThanOrEqual(3);
    expect(answered.length).toBeGreaterThanOrEqual(6);
    for (const c of fresh)
      expect(c.checks.some((k) => k.type === 'tool-call' && k.name === 'lookup_vendor')).toBe(true);
    for (const c of answered) {
      expect(c.messages?.at(-1)?.role).toBe('tool');
      expect(c.checks.some((k) => k.type === 'not-tool-call')).toBe(true);
      expect(c.checks.some((k) => k.type === 'is-json')).toBe(true);
    }
  });
});
