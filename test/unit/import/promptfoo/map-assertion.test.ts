import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFindings, summariseUnmapped } from '../../../../src/import/promptfoo/findings.js';
import {
  assertionUsesVars,
  mapAssertions,
  placeAssertions,
} from '../../../../src/import/promptfoo/map-assertion.js';

const root = mkdtempSync(join(tmpdir(), 'ar-pf-assert-'));
const configDir = join(root, 'evals');
mkdirSync(join(configDir, 'checks'), { recursive: true });
writeFileSync(join(configDir, 'schema.yaml'), 'type: object\nrequired: [name]\n');
writeFileSync(join(configDir, 'expected.txt'), 'Bonjour\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ctx = {
  configDir,
  experimentDir: join(root, 'experiments', 'x'),
  projectRoot: root,
  displayRoot: root,
};

async function map(list: unknown[], vars?: Record<string, string>) {
  const findings = createFindings();
  const mapped = await mapAssertions(
    placeAssertions(list, 'tests[0].assert'),
    { ...ctx, ...(vars ? { vars } : {}) },
    findings,
  );
  return { ...mapped, unmapped: summariseUnmapped(findings.unmapped), notes: findings.notes };
}

describe('mapAssertions: deterministic assertions become checks with the same names', () => {
  it('keeps type, not- prefix, value, weight and metric (as the name)', async () => {
    const { checks, unmapped } = await map([
      { type: 'equals', value: 'Paris' },
      { type: 'not-icontains-any', value: ['synergy', 'leverage'], weight: 2 },
      { type: 'contains-all', value: 'a, b' },
      { type: 'starts-with', value: 'Subject:', metric: 'format' },
      { type: 'regex', value: '^\\d+$' },
      { type: 'is-json', value: { type: 'object' } },
      { type: 'contains-json' },
      { type: 'javascript', value: 'output.length < 100', threshold: 0.5 },
      { type: 'not-javascript', value: 'context.vars.topic.length > output.length' },
    ]);
    expect(unmapped).toEqual([]);
    expect(checks).toEqual([
      { type: 'equals', value: 'Paris' },
      { type: 'not-icontains-any', value: ['synergy', 'leverage'], weight: 2 },
      { type: 'contains-all', value: 'a, b' },
      { type: 'starts-with', value: 'Subject:', name: 'format' },
      { type: 'regex', value: '^\\d+$' },
      { type: 'is-json', value: { type: 'object' } },
      { type: 'contains-json' },
      { type: 'javascript', value: 'output.length < 100', threshold: 0.5 },
      { type: 'not-javascript', value: 'context.vars.topic.length > output.length' },
    ]);
  });

  it('renders {{vars}} in values with the case, as promptfoo does per test', async () => {
    const { checks } = await map(
      [
        { type: 'icontains', value: '{{ city }}' },
        { type: 'contains-any', value: ['{{city}}', 'x'] },
      ],
      { city: 'Lyon' },
    );
    expect(checks).toEqual([
      { type: 'icontains', value: 'Lyon' },
      { type: 'contains-any', value: ['Lyon', 'x'] },
    ]);
    expect(assertionUsesVars({ type: 'icontains', value: '{{ city }}' })).toBe(true);
    expect(assertionUsesVars({ type: 'assert-set', assert: [{ type: 'contains', value: '{{a}}' }] })).toBe(
      true,
    );
    expect(assertionUsesVars({ type: 'icontains', value: 'plain' })).toBe(false);
  });

  it('reads file:// values and re-points javascript files from the experiment folder', async () => {
    const { checks, unmapped } = await map([
      { type: 'is-json', value: 'file://schema.yaml' },
      { type: 'equals', value: 'file://expected.txt' },
      { type: 'javascript', value: 'file://checks/len.js:short' },
      { type: 'javascript', value: 'file://checks/len.ts' },
      { type: 'contains-json', value: '{"type": "object"}' },
    ]);
    expect(checks).toEqual([
      { type: 'is-json', value: { type: 'object', required: ['name'] } },
      { type: 'equals', value: 'Bonjour' },
      { type: 'javascript', value: 'file://../../evals/checks/len.js:short' },
      { type: 'contains-json', value: { type: 'object' } },
    ]);
    expect(unmapped).toHaveLength(1);
    expect(unmapped[0]?.why).toContain('.ts');
  });

  it('flattens an assert-set without a threshold and refuses one with', async () => {
    const { checks, unmapped } = await map([
      {
        type: 'assert-set',
        assert: [
          { type: 'contains', value: 'a' },
          { type: 'contains', value: 'b' },
        ],
      },
      { type: 'assert-set', threshold: 0.5, assert: [{ type: 'contains', value: 'c' }] },
    ]);
    expect(checks).toEqual([
      { type: 'contains', value: 'a' },
      { type: 'contains', value: 'b' },
    ]);
    expect(unmapped[0]?.what).toBe('`assert-set` with a threshold (tests[0].assert[1])');
  });
});

describe('mapAssertions: model-graded assertions become expectations', () => {
  it('takes the value text of llm-rubric, model-graded-closedqa, g-eval and factuality', async () => {
    const { expectations, checks, notes } = await map(
      [
        { type: 'llm-rubric', value: 'Is polite to {{name}}' },
        { type: 'model-graded-closedqa', value: 'Names the capital' },
        { type: 'g-eval', value: ['Is coherent', 'Is concise'] },
        { type: 'factuality', value: 'Paris is the capital of France' },
      ],
      { name: 'Ana' },
    );
    expect(checks).toEqual([]);
    expect(expectations).toEqual([
      'Is polite to Ana',
      'Names the capital',
      'Is coherent',
      'Is concise',
      'Agrees with this reference answer: Paris is the capital of France',
    ]);
    expect(notes.join(' ')).toContain('factuality');
  });

  it('reports a negated rubric and the settings an expectation cannot carry', async () => {
    const { expectations, unmapped } = await map([
      { type: 'not-llm-rubric', value: 'Is rude' },
      { type: 'llm-rubric', value: 'Is kind', weight: 3, provider: 'openai:gpt-4o' },
    ]);
    expect(expectations).toEqual(['Is kind']);
    expect(unmapped.map((u) => u.what)).toEqual([
      '`not-llm-rubric` assertion (tests[0].assert[0])',
      '`provider` on a `llm-rubric` assertion (tests[0].assert[1])',
      '`weight` on a `llm-rubric` assertion (tests[0].assert[1])',
    ]);
  });
});

describe('mapAssertions: what has no equivalent is reported with the reason', () => {
  it.each([
    [{ type: 'similar', value: 'x', threshold: 0.8 }, 'embeddings'],
    [{ type: 'levenshtein', value: 'x' }, 'reference-overlap'],
    [{ type: 'cost', threshold: 0.01 }, 'budget'],
    [{ type: 'python', value: 'file://check.py' }, 'command'],
    [{ type: 'is-xml' }, 'javascript check'],
    [{ type: 'command', value: ['x'] }, 'no equivalent'],
    [{ type: 'made-up-type' }, 'no equivalent'],
    [{ value: 'no type' }, 'nothing says what to test'],
    [{ type: 'equals', value: 'x', transform: 'output.trim()' }, 'transforms the output'],
    [{ type: 'regex', value: '([a-z]' }, 'Unterminated group'],
    [{ type: 'icontains', value: '{{ name | upper }}' }, 'Nunjucks'],
    [{ type: 'javascript', value: 'context.prompt.length < output.length' }, 'context fields'],
    [{ type: 'contains', value: 'x', threshold: 0.5 }, 'no effect'],
  ])('%j', async (assertion, why) => {
    const { unmapped } = await map([assertion], { name: 'a' });
    expect(unmapped).toHaveLength(1);
    expect(unmapped[0]?.why).toContain(why);
  });
});
