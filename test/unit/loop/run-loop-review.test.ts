/**
 * The loop with the rubric and expectations on, judged and graded in-process (no subprocess):
 * the judge's and grader's verdicts decide keeps, their failures are journaled as the
 * iteration's error, and they are shown only what they may see — outputs and the rubric for
 * the judge; one case's expectations, variables, generator and outputs for the grader.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanUpScriptedRuns,
  promptWith,
  runScripted,
  statusesOf,
  timelineOf,
} from '../../helpers/loop-harness.js';
import { createInProcessGrader } from '../../helpers/in-process-grader.js';
import { createInProcessJudge } from '../../helpers/in-process-judge.js';
import { mutatorScript } from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

const RUBRIC = '# Rubric\n\n## Criteria\n\n### Warmth\n\nDoes it sound warm?\n\n### Brevity\n';
const WARM = promptWith(['alpha'], ' Keep it warm.');
/** Scores only what the text says: 5 for a warm output, 2 otherwise. */
const warmth = (text: string) => (text.includes('warm') ? 5 : 2);

function candidateScores(events: Awaited<ReturnType<typeof runScripted>>['events'], iteration: number) {
  const found = events.find((e) => e.type === 'candidate_evaluated' && e.iteration === iteration);
  if (found?.type !== 'candidate_evaluated') throw new Error(`iteration ${iteration} has no evaluation`);
  return found.scores.train;
}

describe('runLoop with the rubric on, judged in-process', () => {
  it('keeps a candidate only the judge prefers (the checks tie)', async () => {
    const judge = createInProcessJudge(warmth);
    const mutator = mutatorScript([{ hypothesis: 'Warmer.', prompt: WARM }]);
    const run = await runScripted({ mutator, rubric: RUBRIC, judge, budget: { iterations: 1 } });

    expect(statusesOf(run)).toEqual(['baseline', 'keep']);
    const before = candidateScores(run.events, 0);
    const after = candidateScores(run.events, 1);
    expect(before.checks).toBeCloseTo(after.checks ?? Number.NaN);
    expect(before.judge).toBeCloseTo(0.25);
    expect(after.judge).toBeCloseTo(1);
    // Baseline, its drift anchors read again (docs/design/judge-reliability.md), candidate, and the
    // final evaluation of both: one request and one session each.
    expect(judge.requests).toHaveLength(5);
    expect(judge.sessions).toHaveLength(5);
    expect(judge.closed()).toBe(5);
    expect(judge.requests.filter((r) => r.fresh !== undefined)).toHaveLength(1);
  });

  it('shows the judge only the outputs and the rubric — no prompt, iteration, scores or case vars', async () => {
    const judge = createInProcessJudge(warmth);
    const mutator = mutatorScript([{ hypothesis: 'Warmer, says the hypothesis.', prompt: WARM }]);
    const run = await runScripted({ mutator, rubric: RUBRIC, judge, budget: { iterations: 1 } });

    expect(judge.requests.length).toBeGreaterThan(0);
    for (const request of judge.requests) {
      // A drift-anchor reading (docs/design/judge-reliability.md) is a fresh judging of a few
      // baseline outputs.
      const anchors = request.fresh !== undefined;
      expect(Object.keys(request).sort()).toEqual(
        ['outputs', 'rubric', 'seed', ...(anchors ? ['fresh'] : [])].sort(),
      );
      expect(request.rubric).toEqual(run.experiment.rubric);
      if (!anchors) expect(request.outputs).toHaveLength(run.experiment.cases.length);
      for (const output of request.outputs) {
        expect(Object.keys(output).sort()).toEqual(['caseId', 'sample', 'text']);
        // The generator echoes the rendered prompt: the output is exactly what it wrote.
        expect(output.text).toMatch(/^Write a short note to \w+ that uses these words: alpha\./);
      }
      expect(JSON.stringify(request)).not.toContain('says the hypothesis');
    }
    for (const session of judge.sessions) {
      expect(Object.keys(session).sort()).toEqual(['account', 'signal']);
    }
  });

  it('journals a failed judge as the iteration’s judge_error; the run goes on', async () => {
    const judge = createInProcessJudge((text) => {
      if (text.includes('BROKEN')) throw new Error('the judge could not read it');
      return 3;
    });
    const mutator = mutatorScript([
      { hypothesis: 'Breaks the judge.', prompt: promptWith(['alpha'], ' BROKEN') },
      { hypothesis: 'Warmer.', prompt: WARM },
    ]);
    const run = await runScripted({ mutator, rubric: RUBRIC, judge, budget: { iterations: 2 } });

    expect(statusesOf(run)).toEqual(['baseline', 'error', 'discard']);
    expect(timelineOf(run.events)).toContain('finish 1 error judge_error');
    expect(judge.closed()).toBe(judge.sessions.length);
  });

  it('refuses to run a rubric without a judge rather than drop its score', async () => {
    const mutator = mutatorScript([]);
    await expect(runScripted({ mutator, rubric: RUBRIC, budget: { iterations: 1 } })).rejects.toThrow(
      /the rubric needs a judge/,
    );
  });
});

describe('runLoop with expectations, graded in-process', () => {
  it('keeps a candidate that meets an expectation, and shows the grader only its case', async () => {
    const grader = createInProcessGrader((_expectation, outputs) => outputs.some((o) => o.includes('warm')));
    const mutator = mutatorScript([{ hypothesis: 'Warmer.', prompt: WARM }]);
    const run = await runScripted({
      mutator,
      expectations: { t1: ['Sounds warm'] },
      grader,
      budget: { iterations: 1 },
    });

    expect(statusesOf(run)).toEqual(['baseline', 'keep']);
    expect(candidateScores(run.events, 0).expectations).toBe(0);
    expect(candidateScores(run.events, 1).expectations).toBe(1);
    expect(grader.requests.length).toBeGreaterThan(0);
    for (const request of grader.requests) {
      expect(Object.keys(request).sort()).toEqual(['expectations', 'model', 'outputs', 'vars']);
      expect(request.expectations).toEqual(['Sounds warm']);
      expect(request.vars).toEqual({ name: 'Ada' });
      expect(request.model).toBe('anthropic / gen');
      // The stop reason belongs in the transcript the grader reads (a truncated output, say).
      for (const output of request.outputs) {
        expect(Object.keys(output).sort()).toEqual(['sample', 'stopReason', 'text']);
      }
    }
  });
});
