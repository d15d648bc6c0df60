import { describe, expect, it } from 'vitest';
import { validateJudgeScores } from '../../../src/judge/validate-judge-scores.js';

const expected = { files: ['output_00.txt', 'output_01.txt'], criteria: ['clarity', 'tone'] };

function entry(file: string, scores: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { file, criteria_scores: scores, average: 0, reasoning: 'Fine.', ...extra };
}

function file(per_output: unknown[], extra: Record<string, unknown> = {}) {
  return { quality_score: 0.5, per_output, criteria_averages: {}, ...extra };
}

describe('validateJudgeScores', () => {
  it('quotes at most 80 characters of what the judge wrote, however long it was', () => {
    const long = 'x'.repeat(100_000);
    const result = validateJudgeScores(
      file([
        entry('output_00.txt', { clarity: long, tone: 4, [long]: 3 }),
        entry(long, {}),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      expected,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(3);
    for (const problem of result.problems) expect(problem.length).toBeLessThan(200);
    expect(result.problems.join('\n')).toContain(`clarity is "${'x'.repeat(78)}…`);
  });

  it('accepts a valid file and recomputes every number, ignoring the judge’s arithmetic', () => {
    const result = validateJudgeScores(
      file(
        [
          entry('output_01.txt', { clarity: 2, tone: 3 }, { average: 9 }),
          entry('output_00.txt', { clarity: 4, tone: 5 }),
        ],
        { quality_score: 0.99, criteria_averages: { clarity: 5, tone: 5 } },
      ),
      expected,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.criteriaAverages).toEqual({ clarity: 3, tone: 4 });
    expect(result.qualityScore).toBeCloseTo(7 / 10);
    expect(result.outputs.map((o) => o.file)).toEqual(['output_00.txt', 'output_01.txt']);
  });

  it('uses the means of integer sample sets, not the judge’s criteria_scores', () => {
    const result = validateJudgeScores(
      file([
        entry(
          'output_00.txt',
          { clarity: 5, tone: 5 },
          {
            samples: [
              { clarity: 3, tone: 4 },
              { clarity: 4, tone: 4 },
            ],
          },
        ),
        entry('output_01.txt', { clarity: 1, tone: 1 }),
      ]),
      expected,
    );
    expect(result.ok && result.outputs[0]).toMatchObject({
      criteria: { clarity: 3.5, tone: 4 },
      samples: [
        { clarity: 3, tone: 4 },
        { clarity: 4, tone: 4 },
      ],
    });
  });

  it.each([
    [
      'a missing output',
      file([entry('output_00.txt', { clarity: 4, tone: 4 })]),
      /output_01.txt was not scored/,
    ],
    [
      'an output scored twice',
      file([
        entry('output_00.txt', { clarity: 4, tone: 4 }),
        entry('output_00.txt', { clarity: 4, tone: 4 }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /more than once/,
    ],
    [
      'an unknown file',
      file([
        entry('output_00.txt', { clarity: 4, tone: 4 }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
        entry('x.txt', {}),
      ]),
      /not one of the outputs/,
    ],
    [
      'an extra criterion',
      file([
        entry('output_00.txt', { clarity: 4, tone: 4, humour: 3 }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /"humour", which the rubric does not define/,
    ],
    [
      'a missing criterion',
      file([entry('output_00.txt', { clarity: 4 }), entry('output_01.txt', { clarity: 4, tone: 4 })]),
      /lacks criterion "tone"/,
    ],
    [
      'a score of 7',
      file([
        entry('output_00.txt', { clarity: 7, tone: 4 }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /clarity is 7/,
    ],
    [
      'a score of 0',
      file([
        entry('output_00.txt', { clarity: 0, tone: 4 }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /clarity is 0/,
    ],
    [
      'a fractional score',
      file([
        entry('output_00.txt', { clarity: 3.5, tone: 4 }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /3.5/,
    ],
    [
      'a string score',
      file([
        entry('output_00.txt', { clarity: '4', tone: 4 }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /"4"/,
    ],
    [
      'empty reasoning',
      file([
        entry('output_00.txt', { clarity: 4, tone: 4 }, { reasoning: '  ' }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /reasoning is empty/,
    ],
    [
      'a sample outside 1-5',
      file([
        entry('output_00.txt', { clarity: 4, tone: 4 }, { samples: [{ clarity: 4, tone: 6 }] }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /samples\[0\]\.tone is 6/,
    ],
    [
      'an empty samples list',
      file([
        entry('output_00.txt', { clarity: 4, tone: 4 }, { samples: [] }),
        entry('output_01.txt', { clarity: 4, tone: 4 }),
      ]),
      /non-empty list/,
    ],
    ['no per_output', { quality_score: 1 }, /no per_output/],
    ['garbage', 'not an object', /no per_output/],
  ])('rejects %s', (_, raw, problem) => {
    const result = validateJudgeScores(raw, expected);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join('\n')).toMatch(problem);
  });

  it('takes an agent case’s folder by its name output_NN, and nothing else for it', () => {
    const folders = { files: ['output_00', 'output_01'], criteria: ['clarity', 'tone'] };
    const scores = { clarity: 4, tone: 3 };
    const ok = validateJudgeScores(file([entry('output_00', scores), entry('output_01', scores)]), folders);
    expect(ok.ok).toBe(true);
    for (const name of ['output_00.txt', 'output_00/', 'outputs/output_00']) {
      const bad = validateJudgeScores(file([entry(name, scores), entry('output_01', scores)]), folders);
      expect(bad.ok).toBe(false);
      if (bad.ok) continue;
      expect(bad.problems).toEqual([
        `per_output[0] names ${JSON.stringify(name)}, which is not one of the outputs`,
        'output_00 was not scored',
      ]);
    }
  });
});
