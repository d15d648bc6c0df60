/**
 * The loop under paired acceptance (docs/design/paired-acceptance.md), driven with the scripted
 * harness: each train case's score is the share of the four words its output holds (plus the
 * FORBIDDEN gate), so a test scripts per-case differences by scripting prompts, and noise by a
 * generator that drops a word for one case or one sample.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { incumbentRetestBase } from '../../../src/loop/retest-samples.js';
import { candidatePaths, iterationPaths } from '../../../src/run/paths.js';
import {
  cleanUpScriptedRuns,
  finishedEvent,
  promptWith,
  runScripted,
  statusesOf,
} from '../../helpers/loop-harness.js';
import { lastUserMessage, mutatorScript, type ScriptedHandler } from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

// The incumbent's own decisions (decision.json, incumbent-retest/): the greedy search, pinned.
const paired = { strategy: 'greedy', acceptance: 'paired', min_effect: 0.01, confidence: 0.9, retest: 1 };

async function readDecision(runDir: string, iteration: number): Promise<Record<string, any>> {
  return JSON.parse(await readFile(iterationPaths(runDir, iteration).decision, 'utf8'));
}

/** Echoes the prompt, but for Ada's first sample the word "bravo" is lost. */
const adaLosesBravoOnce: ScriptedHandler = ({ request }) => {
  const text = lastUserMessage(request);
  return text.includes('Ada') && (request.sampleIndex ?? 0) === 0 ? text.replace('bravo', '') : text;
};

describe('runLoop: paired acceptance', () => {
  it('keeps a gain every case shows, discards all ties, and records each interval', async () => {
    const mutator = mutatorScript([
      { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) },
      { hypothesis: 'Swap bravo for zulu.', prompt: promptWith(['alpha', 'zulu']) },
    ]);
    const run = await runScripted({ mutator, search: paired, budget: { iterations: 2 } });
    expect(statusesOf(run)).toEqual(['baseline', 'keep', 'discard']);

    // One baseline evaluation: paired acceptance needs no noise repeats and journals no margin.
    expect(run.events.filter((e) => e.type === 'candidate_evaluated' && e.iteration === 0)).toHaveLength(1);
    expect(run.events.some((e) => e.type === 'noise_margin')).toBe(false);

    const keep = finishedEvent(run.events, 1);
    expect(keep.paired).toMatchObject({
      confidence: expect.closeTo(0.95, 9),
      looks: 1,
      train: { n: 3, mean: expect.closeTo(0.2, 9) },
      holdout: { n: 1, mean: expect.closeTo(0.1, 9), lo: null, hi: null },
      wins: 3,
      losses: 0,
      ties: 0,
    });
    expect(keep.delta).toBeCloseTo(0.2, 9);
    const discard = finishedEvent(run.events, 2);
    expect(discard.paired).toMatchObject({ train: { mean: expect.closeTo(-0.2, 9) }, wins: 0, losses: 3 });
    expect(discard.message).toMatch(/no gain of 0\.010 \(the min effect\) is plausible/);

    const decision = await readDecision(run.runDir, 1);
    expect(decision['acceptance']).toBe('paired');
    expect(decision['paired'].cases).toEqual([
      { split: 'train', caseId: 't1', candidate: 0.6, incumbent: 0.4, d: expect.closeTo(0.2, 9) },
      { split: 'train', caseId: 't2', candidate: 0.6, incumbent: 0.4, d: expect.closeTo(0.2, 9) },
      { split: 'train', caseId: 't3', candidate: 0.6, incumbent: 0.4, d: expect.closeTo(0.2, 9) },
      { split: 'holdout', caseId: 'h1', candidate: 0.8, incumbent: 0.7, d: expect.closeTo(0.1, 9) },
    ]);
    const tsv = (await readFile(join(run.runDir, 'results.tsv'), 'utf8')).trim().split('\n');
    const header = tsv[0]!.split('\t');
    const row = Object.fromEntries(header.map((h, i) => [h, tsv[2]!.split('\t')[i]]));
    expect(row).toMatchObject({ status: 'keep', delta_lo: '0.2000', delta_hi: '0.2000', n_cases: '3' });
  });

  it('retests an unclear first look with fresh samples on both sides and keeps what the retest confirms', async () => {
    const mutator = mutatorScript([{ hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) }]);
    const run = await runScripted({
      mutator,
      generator: adaLosesBravoOnce,
      search: paired,
      budget: { iterations: 1 },
    });
    expect(statusesOf(run)).toEqual(['baseline', 'keep']);
    const event = finishedEvent(run.events, 1);
    // First look d = (0, .2, .2): zero is inside; pooled with the retest, Ada's d is 0.1.
    expect(event.paired).toMatchObject({ looks: 2, train: { n: 3, mean: expect.closeTo(0.5 / 3, 9) } });
    expect(event.paired?.train.lo as number).toBeGreaterThan(0);

    // Both sides got one more sample per case on every loop case: the candidate its sample 1, the
    // incumbent a block of its own for this decision (src/loop/retest-samples.ts).
    const callsAt = (index: number) =>
      run.scripted.callsTo('gen').filter((c) => c.request.sampleIndex === index);
    expect(callsAt(1)).toHaveLength(4);
    expect(callsAt(incumbentRetestBase({ samples: 1, retest: 1 }, 1, 0))).toHaveLength(4);
    expect((await readDecision(run.runDir, 1)).paired.sampleIndices).toEqual({
      candidate: [0, 1],
      incumbent: [0, incumbentRetestBase({ samples: 1, retest: 1 }, 1, 0)],
    });
    await stat(join(candidatePaths(run.runDir, 1, 0).dir, 'retest', 'evaluation.json'));
    await stat(join(iterationPaths(run.runDir, 1).dir, 'incumbent-retest', 'evaluation.json'));
    // The incumbent's retest is not journaled as a candidate of the iteration.
    const evaluated = run.events.filter((e) => e.type === 'candidate_evaluated' && e.iteration === 1);
    expect(evaluated.map((e) => (e.type === 'candidate_evaluated' ? e.repeat : null))).toEqual([
      undefined,
      1,
    ]);
  });

  it('draws the parent afresh at each retest: two retests of one parent share no generation', async () => {
    // Ada loses bravo on every sample: both iterations stay unclear and retest the baseline.
    const adaAlwaysLoses: ScriptedHandler = ({ request }) => {
      const text = lastUserMessage(request);
      return text.includes('Ada') ? text.replace('bravo', '') : text;
    };
    const mutator = mutatorScript([
      { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) },
      { hypothesis: 'Add bravo, said briefly.', prompt: promptWith(['alpha', 'bravo'], 'Be brief.') },
    ]);
    const run = await runScripted({
      mutator,
      generator: adaAlwaysLoses,
      search: paired,
      budget: { iterations: 2 },
    });
    expect(statusesOf(run)).toEqual(['baseline', 'inconclusive', 'inconclusive']);
    const retestIndices = async (iteration: number) =>
      ((await readDecision(run.runDir, iteration)).paired.sampleIndices.incumbent as number[]).slice(1);
    const [first, second] = [await retestIndices(1), await retestIndices(2)];
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    // A generation is what the response cache keys it by: the exact request and its sample index.
    const generationsAt = (indices: readonly number[]) =>
      run.scripted
        .callsTo('gen')
        .filter((c) => indices.includes(c.request.sampleIndex ?? 0))
        .map((c) => JSON.stringify([c.request.messages, c.request.sampleIndex]));
    // One retest sample of the parent on each of the 4 loop cases, twice: 8 generations, 8 distinct.
    const generations = [...generationsAt(first), ...generationsAt(second)];
    expect(generations).toHaveLength(8);
    expect(new Set(generations).size).toBe(8);
    // Neither retest replays a draw of the parent's own: its evaluation (0) or its candidates' (0, 1).
    expect([...first, ...second].some((i) => i <= 1)).toBe(false);
    expect(first).not.toEqual(second);
  });

  it('with search.group_by takes the intervals on group means and records how many groups', async () => {
    const mutator = mutatorScript([{ hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) }]);
    const run = await runScripted({
      mutator,
      generator: adaLosesBravoOnce,
      // Each case's own name is its group: the train interval stands on 3 groups, the holdout on 1.
      search: { ...paired, group_by: 'name' },
      budget: { iterations: 1 },
    });
    const event = finishedEvent(run.events, 1);
    expect(event.paired?.train).toMatchObject({ n: 3, groups: 3 });
    expect(event.paired?.holdout).toMatchObject({ n: 1, groups: 1, lo: null, hi: null });
    const decision = await readDecision(run.runDir, 1);
    expect(decision.paired.cases.map((c: { caseId: string; group?: string }) => [c.caseId, c.group])).toEqual(
      [
        ['t1', 'Ada'],
        ['t2', 'Bo'],
        ['t3', 'Cy'],
        ['h1', 'Quillon'],
      ],
    );
    expect(event.message).toMatch(/over 3 cases in 3 groups/);
  });

  it('calls a still-unclear result inconclusive, never commits it, and counts it toward patience', async () => {
    // Ada loses bravo on every sample: d = (0, .2, .2) on both looks.
    const adaAlwaysLoses: ScriptedHandler = ({ request }) => {
      const text = lastUserMessage(request);
      return text.includes('Ada') ? text.replace('bravo', '') : text;
    };
    const mutator = mutatorScript([{ hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) }]);
    const run = await runScripted({
      mutator,
      generator: adaAlwaysLoses,
      search: paired,
      budget: { iterations: 1 },
    });
    expect(statusesOf(run)).toEqual(['baseline', 'inconclusive']);
    const event = finishedEvent(run.events, 1);
    expect(event.paired).toMatchObject({ looks: 2, wins: 2, losses: 0, ties: 1 });
    expect(event.message).toMatch(/neither a clear gain .* after the retest/);
    expect(run.recorder.state().incumbent?.iteration).toBe(0);
    expect(run.recorder.state().counters.nonImproving).toBe(1);
  });

  it('with retest 0 takes one look at the full confidence, narrower than each of two looks', async () => {
    const mutator = mutatorScript([{ hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) }]);
    const run = await runScripted({
      mutator,
      generator: adaLosesBravoOnce,
      search: { ...paired, retest: 0 },
      budget: { iterations: 1 },
    });
    // d = (0, .2, .2): at 0.9 with 2 degrees of freedom the lower bound is just above 0 (at 0.95 it is not).
    expect(statusesOf(run)).toEqual(['baseline', 'keep']);
    expect(finishedEvent(run.events, 1).paired).toMatchObject({ looks: 1, confidence: 0.9 });
    expect(finishedEvent(run.events, 1).paired?.train.lo).toBeCloseTo(
      0.1333 - 1.8856 * (0.11547 / Math.sqrt(3)),
      3,
    );
    expect(run.scripted.callsTo('gen').some((c) => c.request.sampleIndex === 1)).toBe(false);
  });

  it('holds back a train gain the holdout case contradicts, and fails a gated candidate', async () => {
    const mutator = mutatorScript([
      { hypothesis: 'Tuned to train only.', prompt: promptWith(['alpha', 'bravo', 'OVERFIT']) },
      { hypothesis: 'Forbidden words.', prompt: promptWith(['alpha', 'bravo', 'charlie', 'FORBIDDEN']) },
    ]);
    const run = await runScripted({ mutator, search: paired, budget: { iterations: 2 } });
    expect(statusesOf(run)).toEqual(['baseline', 'holdout_fail', 'gate_fail']);
    expect(finishedEvent(run.events, 1).message).toMatch(/does not generalise/);
  });

  it('screens on a seeded minibatch: a proposal no better there is screened out and the rest never evaluated', async () => {
    const mutator = mutatorScript([
      { hypothesis: 'Swap alpha for zulu.', prompt: promptWith(['zulu']) },
      { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) },
    ]);
    const run = await runScripted({
      mutator,
      search: { ...paired, minibatch: 1 },
      budget: { iterations: 2 },
    });
    expect(statusesOf(run)).toEqual(['baseline', 'screened_out', 'keep']);

    const screened = finishedEvent(run.events, 1);
    expect(screened.screen).toMatchObject({ passed: false, callsSaved: 3, mean: expect.closeTo(-0.2, 9) });
    expect(screened.screen?.cases).toHaveLength(1);
    expect(screened.train).toBeNull();
    expect(screened.paired).toBeUndefined();
    expect(run.recorder.state().counters.nonImproving).toBe(0);
    // Iteration 1 made one generation (its minibatch case); iteration 2 all four.
    const spend = run.events.filter(
      (e) => e.type === 'spend' && e.role === 'generator' && e.phase !== 'final',
    );
    expect(spend.map((e) => (e.type === 'spend' ? [e.iteration, e.calls] : null))).toEqual([
      [0, 4],
      [1, 1],
      [2, 4],
    ]);
    const kept = finishedEvent(run.events, 2);
    expect(kept.screen).toMatchObject({ passed: true, callsSaved: 0 });
    // The kept candidate's folder holds one evaluation of every loop case, both stages together.
    const stored = JSON.parse(await readFile(candidatePaths(run.runDir, 2, 0).evaluation, 'utf8'));
    expect(stored.evaluation.cases.map((c: { id: string }) => c.id).sort()).toEqual(['h1', 't1', 't2', 't3']);
    expect(stored.scores.train.total).toBeCloseTo(0.6, 9);

    const decision = await readDecision(run.runDir, 1);
    expect(decision['minibatch']).toEqual(screened.screen?.cases);
  });
});
