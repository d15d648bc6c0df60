/**
 * Drift anchors in the loop (docs/design/judge-reliability.md), judged in-process: the anchors are
 * read again right after the baseline and every `anchor_every` iterations, each time as a fresh
 * judging with its own sample base; the readings are journaled with their iteration's end; a judge
 * that moves is flagged, a steady one is not; a judge too noisy for `min_effect` is warned about
 * once; `anchors: 0` turns it all off.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { createInProcessJudge } from '../../helpers/in-process-judge.js';
import { cleanUpScriptedRuns, promptWith, runScripted } from '../../helpers/loop-harness.js';
import { mutatorScript } from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

const RUBRIC = '# Rubric\n\n## Criteria\n\n### Warmth\n\nDoes it sound warm?\n';
const steps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    hypothesis: `Try ${i}.`,
    prompt: promptWith(['alpha'], ` Take ${i}.`),
  }));

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** Each event type journaled right before an iteration's `iteration_finished`, in one append with it. */
function journaledWithEnd(events: readonly RunEvent[], type: RunEvent['type']): number[] {
  return events.flatMap((e, index) => {
    if (e.type !== type) return [];
    const end = events.slice(index).find((later) => later.type === 'iteration_finished');
    return end?.type === 'iteration_finished' && end.at === e.at ? [end.iteration] : [];
  });
}

describe('drift anchors in the loop', () => {
  it('re-judges the anchors fresh at the baseline and every anchor_every iterations; a steady judge is never flagged', async () => {
    const judge = createInProcessJudge((text) => (text.includes('Take 1') ? 4 : 2));
    const run = await runScripted({
      mutator: mutatorScript(steps(5)),
      rubric: RUBRIC,
      judge,
      budget: { iterations: 5 },
      judging: { anchors: 2, anchor_every: 2 },
    });

    const fresh = judge.requests.filter((r) => r.fresh !== undefined);
    expect(fresh.map((r) => r.fresh?.sampleBase)).toEqual([1_000_000, 1_002_000, 1_004_000]);
    for (const request of fresh) expect(request.outputs).toHaveLength(2);
    // The anchors are the same baseline outputs, with the baseline's own text, every time.
    const anchorIds = (r: (typeof fresh)[number]) => r.outputs.map((o) => `${o.caseId}.${o.sample}`).sort();
    expect(new Set(fresh.map(anchorIds).map((ids) => ids.join()))).toHaveProperty('size', 1);
    expect(fresh[0]?.outputs[0]?.text).toMatch(
      /^Write a short note to \w+ that uses these words: alpha\.\n$/,
    );

    const noise = ofType(run.events, 'judge_noise');
    expect(noise).toHaveLength(1);
    expect(noise[0]).toMatchObject({ iteration: 0, noise: 0, decisionNoise: null });
    expect(journaledWithEnd(run.events, 'judge_noise')).toEqual([0]);
    const drift = ofType(run.events, 'judge_drift');
    expect(drift.map((e) => [e.iteration, e.mean, e.beyondNoise])).toEqual([
      [2, 0, false],
      [4, 0, false],
    ]);
    expect(journaledWithEnd(run.events, 'judge_drift')).toEqual([2, 4]);
    expect(ofType(run.events, 'warning')).toEqual([]);
    expect(run.recorder.state().judgeAnchors.checks.map((c) => c.iteration)).toEqual([2, 4]);
  });

  it('flags a judge whose scores move after the baseline, with a journaled warning', async () => {
    let drifted = false;
    const judge = createInProcessJudge(() => (drifted ? 5 : 2));
    const mutator = mutatorScript(
      steps(3).map((step, i) => () => {
        // From the second proposal on, the judge scores everything higher.
        if (i === 1) drifted = true;
        return step;
      }),
    );
    const run = await runScripted({
      mutator,
      rubric: RUBRIC,
      judge,
      budget: { iterations: 3 },
      judging: { anchors: 3, anchor_every: 1 },
    });

    const drift = ofType(run.events, 'judge_drift');
    expect(drift.map((e) => [e.iteration, e.beyondNoise])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    expect(drift[1]?.mean).toBeCloseTo(0.75); // 2 → 5 on one criterion: 0.25 → 1
    expect(drift[1]?.anchors.every((a) => a.baseline === 0.25 && a.now === 1)).toBe(true);
    const warnings = ofType(run.events, 'warning');
    expect(warnings.map((w) => w.iteration)).toEqual([2, 3]);
    expect(warnings[0]?.message).toMatch(
      /^judge drift: .*3 baseline outputs score \+0\.750 .*beyond its noise/,
    );
    expect(journaledWithEnd(run.events, 'warning')).toEqual([2, 3]);
  });

  it('warns once, at the baseline, when the judge is too noisy for min_effect under paired acceptance', async () => {
    // Every judging scores differently from the one before: the re-read moves every anchor.
    let judgings = 0;
    const judge = createInProcessJudge(() => (judgings % 2 === 0 ? 2 : 4));
    const counting = {
      open: (options: Parameters<typeof judge.open>[0]) => {
        const session = judge.open(options);
        return {
          judge: async (request: Parameters<typeof session.judge>[0]) => {
            const result = await session.judge(request);
            judgings += 1;
            return result;
          },
          close: () => session.close(),
        };
      },
    };
    const run = await runScripted({
      mutator: mutatorScript(steps(1)),
      rubric: RUBRIC,
      judge: counting,
      search: { acceptance: 'paired', min_improvement: 'auto', min_effect: 0.05 },
      budget: { iterations: 1 },
      judging: { anchors: 2 },
    });

    const [noise] = ofType(run.events, 'judge_noise');
    // Re-read 2 → 4 on the only criterion: 0.25 → 0.75, noise 0.5; the judge's share of
    // checks + judge is 0.5; three train cases, one sample: 0.5 · 0.5 / √3.
    expect(noise?.noise).toBeCloseTo(0.5);
    expect(noise?.decisionNoise).toBeCloseTo(0.25 / Math.sqrt(3));
    const warnings = ofType(run.events, 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ iteration: 0 });
    expect(warnings[0]?.message).toMatch(
      /^the judge cannot resolve the gains it is asked for: .*±0\.144.*min_effect \(0\.05\)/,
    );
  });

  it('reads no anchor with anchors: 0, nor without a rubric', async () => {
    const judge = createInProcessJudge(() => 3);
    const off = await runScripted({
      mutator: mutatorScript(steps(5)),
      rubric: RUBRIC,
      judge,
      budget: { iterations: 5 },
      judging: { anchors: 0 },
    });
    expect(judge.requests.filter((r) => r.fresh !== undefined)).toEqual([]);
    expect(off.events.filter((e) => e.type === 'judge_noise' || e.type === 'judge_drift')).toEqual([]);
    const unjudged = await runScripted({ mutator: mutatorScript(steps(5)), budget: { iterations: 5 } });
    expect(unjudged.events.filter((e) => e.type === 'judge_noise' || e.type === 'judge_drift')).toEqual([]);
  });
});
