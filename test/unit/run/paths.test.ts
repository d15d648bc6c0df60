import { describe, expect, it } from 'vitest';
import { candidatePaths, formatIterationNumber, iterationPaths, runPaths } from '../../../src/run/paths.js';

describe('run paths', () => {
  it('lays out the run folder as docs/design/run-records.md says', () => {
    const run = runPaths('/r/x');
    expect(run).toMatchObject({
      manifest: '/r/x/manifest.json',
      events: '/r/x/events.jsonl',
      results: '/r/x/results.tsv',
      best: '/r/x/best.md',
      report: '/r/x/report.html',
      iterations: '/r/x/iterations',
      cache: '/r/x/cache',
    });
    expect(iterationPaths('/r/x', 7)).toEqual({
      dir: '/r/x/iterations/0007',
      mutation: '/r/x/iterations/0007/mutation.json',
      decision: '/r/x/iterations/0007/decision.json',
      candidates: '/r/x/iterations/0007/candidates',
    });
    const c = candidatePaths('/r/x', 0, 2);
    expect(c).toMatchObject({
      dir: '/r/x/iterations/0000/candidates/2',
      prompt: '/r/x/iterations/0000/candidates/2/prompt.md',
      checks: '/r/x/iterations/0000/candidates/2/checks.json',
      judgeScores: '/r/x/iterations/0000/candidates/2/judge-scores.json',
      judgeMap: '/r/x/iterations/0000/candidates/2/judge-map.json',
      evaluation: '/r/x/iterations/0000/candidates/2/evaluation.json',
    });
    expect(c.output('saas-cto', 1)).toBe('/r/x/iterations/0000/candidates/2/outputs/saas-cto.1.txt');
    expect(c.caseGrading('saas-cto')).toBe('/r/x/iterations/0000/candidates/2/grading/saas-cto.json');
  });

  it('numbers iterations with four digits and more past 9999', () => {
    expect(formatIterationNumber(0)).toBe('0000');
    expect(formatIterationNumber(12345)).toBe('12345');
    expect(() => formatIterationNumber(-1)).toThrow(RangeError);
  });

  it('never lets a case id escape its folder', () => {
    const c = candidatePaths('/r/x', 1, 0);
    expect(() => c.output('../etc', 0)).toThrow(RangeError);
    expect(() => c.caseGrading('..')).toThrow(RangeError);
  });
});
