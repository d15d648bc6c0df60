import { describe, expect, it } from 'vitest';
import { parseRubric, toCriterionKey } from '../../../src/experiment/rubric.js';

const table = '| Score | Meaning |\n|---|---|\n| 1 | bad |\n| 5 | good |\n';

describe('toCriterionKey', () => {
  it('turns headings into snake_case keys', () => {
    expect(toCriterionKey('Emotional Resonance')).toBe('emotional_resonance');
    expect(toCriterionKey('Audience fit (for the reader)')).toBe('audience_fit_for_the_reader');
    expect(toCriterionKey('1. Clarity')).toBe('clarity');
    expect(toCriterionKey('**Tone**')).toBe('tone');
  });
});

describe('parseRubric', () => {
  it('reads ### criteria under ## Criteria with optional weights', () => {
    const text = `# R\n\n## Criteria\n\n### Clarity\nweight: 2\n\n${table}\n### Narrative Arc\n\n${table}\n## Notes\n\n### Not one\n`;
    const { rubric, problems } = parseRubric('/r.md', text);
    expect(problems).toEqual([]);
    expect(rubric?.criteria).toEqual([
      { key: 'clarity', title: 'Clarity', weight: 2 },
      { key: 'narrative_arc', title: 'Narrative Arc', weight: 1 },
    ]);
    expect(rubric?.text).toBe(text);
  });

  it('reads ## criteria under # Criteria, any case, deeper headings belonging to a criterion', () => {
    const text = `# CRITERIA\n\n## Tone\n**Weight:** 0.5\n\n### Examples\nweight inside examples is not read\n\n## Focus\n`;
    const { rubric, problems } = parseRubric('/r.md', text);
    expect(problems).toEqual([]);
    expect(rubric?.criteria.map((c) => [c.key, c.weight])).toEqual([
      ['tone', 0.5],
      ['focus', 1],
    ]);
  });

  it('ignores headings inside code fences', () => {
    const text = '## Criteria\n\n```\n### Fake\n```\n\n### Real\n';
    expect(parseRubric('/r.md', text).rubric?.criteria.map((c) => c.key)).toEqual(['real']);
  });

  it('refuses a rubric without a Criteria section', () => {
    const { rubric, problems } = parseRubric('/r.md', '# R\n\n### Clarity\n');
    expect(rubric).toBeUndefined();
    expect(problems[0]).toMatchObject({ location: { file: '/r.md', line: 1 } });
  });

  it('refuses a Criteria section with no criteria, at its heading', () => {
    const { problems } = parseRubric('/r.md', '# R\n\n## Criteria\n\nBe good.\n\n## Notes\n\n### Later\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.location.line).toBe(3);
  });

  it('refuses duplicate keys, bad and negative weights, with their lines', () => {
    const text =
      '## Criteria\n### Clarity\nweight: -1\n### clarity\n### Tone\nweight: heavy\n### Focus\nweight: 1\nweight: 2\n';
    const { rubric, problems } = parseRubric('/r.md', text);
    expect(rubric).toBeUndefined();
    expect(problems.map((p) => [p.location.line, p.message])).toEqual([
      [3, 'weight must be >= 0, got -1'],
      [4, 'duplicate criterion key `clarity` (first on line 2)'],
      [6, 'weight must be a number, got "heavy"'],
      [9, 'a second `weight:` line for the same criterion'],
    ]);
  });

  it('refuses a rubric whose weights are all zero', () => {
    const { problems } = parseRubric('/r.md', '## Criteria\n### A\nweight: 0\n### B\nweight: 0\n');
    expect(problems[0]?.message).toBe('every criterion has weight 0');
  });
});
