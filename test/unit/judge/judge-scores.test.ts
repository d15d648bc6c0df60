import { describe, expect, it } from 'vitest';
import { buildJudgeScoresFile, formatJudgeLine, summariseScores } from '../../../src/judge/judge-scores.js';
import { parseJudgeScores } from '../../../src/report/artifact-schemas.js';

describe('judge scores arithmetic', () => {
  const keys = ['clarity', 'tone'];
  const outputs = [
    { file: 'output_00.txt', criteria: { clarity: 4, tone: 2 }, reasoning: 'a' },
    {
      file: 'output_01.txt',
      criteria: { clarity: 5, tone: 3 },
      reasoning: 'b',
      samples: [{ clarity: 5, tone: 3 }],
    },
  ];

  it('follows the seed formula: sum of criteria averages over (criteria × 5)', () => {
    const summary = summariseScores(outputs, keys);
    expect(summary.criteriaAverages).toEqual({ clarity: 4.5, tone: 2.5 });
    expect(summary.qualityScore).toBeCloseTo(7 / 10);
  });

  it('builds the docs/design/judge-protocol.md file, keeping samples only when there were several', () => {
    const file = buildJudgeScoresFile(
      [
        ...outputs,
        {
          file: 'output_02.txt',
          criteria: { clarity: 3.5, tone: 3 },
          reasoning: 'c',
          samples: [
            { clarity: 3, tone: 3 },
            { clarity: 4, tone: 3 },
          ],
        },
      ],
      keys,
    );
    // What the judge writes, the report reads back unchanged.
    expect(parseJudgeScores(file)).toEqual(file);
    expect(file.per_output[0]).toEqual({
      file: 'output_00.txt',
      criteria_scores: { clarity: 4, tone: 2 },
      average: 3,
      reasoning: 'a',
    });
    expect(file.per_output[1]).not.toHaveProperty('samples');
    expect(file.per_output[2]?.samples).toHaveLength(2);
  });

  it('prints four decimals', () => {
    expect(formatJudgeLine(0.72)).toBe('JUDGE quality_score=0.7200');
    expect(formatJudgeLine(2 / 3)).toBe('JUDGE quality_score=0.6667');
  });
});
