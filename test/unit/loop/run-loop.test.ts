/**
 * The loop driven with fakes: scripted mutator and generator, checks only, an
 * injected clock, no git. Each test scripts the prompts the mutator proposes — and so the
 * scores (see loop-harness.ts) — and asserts the exact journal and the decisions.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { candidatePaths, iterationPaths, runPaths } from '../../../src/run/paths.js';
import {
  cleanUpScriptedRuns,
  finishedEvent,
  promptWith,
  runScripted,
  statusesOf,
  timelineOf,
} from '../../helpers/loop-harness.js';
import {
  firstUserMessage,
  lastUserMessage,
  mutatorScript,
  type ScriptedHandler,
} from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

const TAIL = ' Keep it warm.';
/** A phrase of the bold strategy's task, absent from the focused one. */
const BOLD_TASK_MARKER = 'make one bolder change';

async function readDecision(runDir: string, iteration: number): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(iterationPaths(runDir, iteration).decision, 'utf8'));
}

describe('runLoop: every decision of docs/design/scoring-and-decisions.md, in order', () => {
  it('journals keep, discard, gate_fail, holdout_fail, duplicate and ties exactly', async () => {
    const baseline = promptWith(['alpha'], TAIL);
    const firstKeep = promptWith(['alpha', 'bravo'], TAIL);
    const discarded = promptWith(['alpha', 'zulu'], TAIL);
    const shorterTie = promptWith(['alpha', 'bravo']);
    const mutator = mutatorScript([
      { hypothesis: 'Naming bravo adds a check.', prompt: firstKeep },
      { hypothesis: 'Swapping bravo for zulu.', prompt: discarded },
      {
        hypothesis: 'Three words, but FORBIDDEN too.',
        prompt: promptWith(['alpha', 'bravo', 'charlie', 'FORBIDDEN'], TAIL),
      },
      {
        hypothesis: 'Tuned to train only.',
        prompt: promptWith(['alpha', 'bravo', 'charlie', 'OVERFIT'], TAIL),
      },
      // Iteration 5: the incumbent, an earlier discard, then the baseline — every reply a duplicate.
      { hypothesis: 'Unchanged.', prompt: firstKeep },
      { hypothesis: 'Again.', prompt: discarded },
      { hypothesis: 'Back to the start.', prompt: baseline },
      { hypothesis: 'Dropping the tail loses nothing.', prompt: shorterTie },
      { hypothesis: 'A longer tail.', prompt: promptWith(['alpha', 'bravo'], ' Keep it warm and brief.') },
    ]);
    const run = await runScripted({ prompt: baseline, mutator, budget: { iterations: 7 } });

    expect(run.end).toEqual({ reason: 'iterations', message: '7 of 7 iterations done', exitCode: 0 });
    expect(mutator.remaining()).toBe(0);
    expect(timelineOf(run.events)).toEqual([
      'run_started',
      'start 0 focused',
      'evaluated 0/0 repeat 0 train 0.400 holdout 0.700',
      'noise train 0.010 holdout 0.010',
      'spend generator 4',
      'finish 0 baseline',
      ...iteration(1, 'train 0.600 holdout 0.800', 'keep'),
      ...iteration(2, 'train 0.400 holdout 0.700', 'discard'),
      ...iteration(3, 'train 0.600 holdout 0.800 gate-failure', 'gate_fail'),
      ...iteration(4, 'train 0.800 holdout 0.400', 'holdout_fail'),
      // discard, gate_fail, holdout_fail: bold_after (3) non-improving iterations in a row.
      'start 5 bold',
      'spend mutator 3',
      'finish 5 duplicate',
      // The duplicate neither counts nor resets the streak.
      ...iteration(6, 'train 0.600 holdout 0.800', 'keep', 'bold'),
      ...iteration(7, 'train 0.600 holdout 0.800', 'discard'),
      'spend generator 8',
      'final baseline 0.400 best 0.600',
      'stopped iterations',
    ]);

    expect((await readDecision(run.runDir, 3))['reason']).toMatch(/gate check failed/);
    expect((await readDecision(run.runDir, 4))['reason']).toMatch(/does not generalise/);
    expect((await readDecision(run.runDir, 6))['reason']).toMatch(/a tie.*shorter/);
    expect((await readDecision(run.runDir, 7))['reason']).toMatch(/not shorter/);
    expect(finishedEvent(run.events, 4)).toMatchObject({ delta: expect.closeTo(0.2, 9) });
    expect(finishedEvent(run.events, 5).message).toMatch(/repeats one already tried/);

    // A duplicate is sent back with the reason, and the mutator asked again.
    const duplicateCalls = run.scripted.callsTo('mut').slice(4, 7);
    expect(duplicateCalls.map((c) => c.request.messages.length)).toEqual([1, 3, 5]);
    expect(lastUserMessage(duplicateCalls[1]!.request)).toMatch(/current prompt unchanged/);
    expect(lastUserMessage(duplicateCalls[2]!.request)).toMatch(/repeats one already tried/);

    const state = run.recorder.state();
    expect(state.incumbent).toMatchObject({ iteration: 6, train: expect.closeTo(0.6, 9) });
    expect(state.counters.nonImproving).toBe(1);
    expect(await readFile(runPaths(run.runDir).best, 'utf8')).toBe(shorterTie);
    expect(await readFile(candidatePaths(run.runDir, 4, 0).prompt, 'utf8')).toContain('OVERFIT');
    const tsv = (await readFile(runPaths(run.runDir).results, 'utf8')).trim().split('\n');
    expect(tsv).toHaveLength(1 + 8);
  });

  it('never shows the mutator a holdout case, while the generator renders it', async () => {
    const mutator = mutatorScript([{ hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) }]);
    const run = await runScripted({ mutator, budget: { iterations: 1 } });
    const toMutator = run.scripted.callsTo('mut').map((c) => JSON.stringify(c.request));
    const toGenerator = run.scripted.callsTo('gen').map((c) => lastUserMessage(c.request));
    expect(toMutator.length).toBeGreaterThan(0);
    for (const request of toMutator) expect(request).not.toMatch(/Quillon|"h1"|OVERFIT/);
    expect(toGenerator.some((text) => text.includes('Quillon'))).toBe(true);
  });
});

describe('runLoop: the noise margin', () => {
  // The second and third samples of any prompt lose "alpha": the baseline's three fresh
  // evaluations disagree, and the spread sets the margin.
  const wobbly: ScriptedHandler = ({ request }) => {
    const text = lastUserMessage(request);
    return (request.sampleIndex ?? 0) >= 1 ? text.replace('alpha', '') : text;
  };
  const proposals = () =>
    mutatorScript([
      { hypothesis: 'A politer sign-off.', prompt: promptWith(['alpha'], ' Sign off politely.') },
      { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo'], ' Sign off politely.') },
    ]);

  it('derives it from noise_repeats fresh baseline evaluations and discards a gain within it', async () => {
    const run = await runScripted({
      mutator: proposals(),
      generator: wobbly,
      search: { acceptance: 'margin', min_improvement: 'auto', noise_repeats: 3 },
      budget: { iterations: 2 },
    });
    const sampleIndices = run.scripted
      .callsTo('gen')
      .slice(0, 12)
      .map((c) => c.request.sampleIndex);
    expect(new Set(sampleIndices)).toEqual(new Set([0, 1, 2]));
    const noise = run.events.find((e) => e.type === 'noise_margin');
    // train repeats 0.4, 0.2, 0.2: mean 0.267, sd 0.115; holdout 0.7, 0.6, 0.6: sd 0.058.
    expect(noise).toMatchObject({
      train: expect.closeTo(0.2309, 4),
      holdout: expect.closeTo(0.1155, 4),
      mean: { train: expect.closeTo(0.2667, 4), holdout: expect.closeTo(0.6333, 4) },
    });
    // The repeats run concurrently: their order in the journal is not fixed.
    const baselineLines = timelineOf(run.events).slice(1, 7);
    expect([baselineLines[0], ...baselineLines.slice(1, 4).sort(), ...baselineLines.slice(4)]).toEqual([
      'start 0 focused',
      'evaluated 0/0 repeat 0 train 0.400 holdout 0.700',
      'evaluated 0/1 repeat 1 train 0.200 holdout 0.600',
      'evaluated 0/2 repeat 2 train 0.200 holdout 0.600',
      'noise train 0.231 holdout 0.115',
      'spend generator 12',
    ]);
    // +0.133 is inside the 0.231 margin (and the prompt is longer): discard; +0.333 is a keep.
    expect(statusesOf(run)).toEqual(['baseline', 'discard', 'keep']);
    expect(finishedEvent(run.events, 1).delta).toBeCloseTo(0.1333, 4);
    expect((await readDecision(run.runDir, 1))['reason']).toMatch(/no gain beyond the margin/);
  });

  it('a fixed min_improvement: one baseline evaluation, and a gain must exceed it strictly', async () => {
    const mutator = mutatorScript([
      { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo'], ' Sign off politely.') },
      { hypothesis: 'Add bravo and charlie.', prompt: promptWith(['alpha', 'bravo', 'charlie']) },
    ]);
    const run = await runScripted({
      mutator,
      generator: wobbly,
      search: { min_improvement: 0.2, noise_repeats: 3 },
      budget: { iterations: 2 },
    });
    expect(timelineOf(run.events).filter((line) => line.startsWith('evaluated 0/'))).toEqual([
      'evaluated 0/0 repeat 0 train 0.400 holdout 0.700',
    ]);
    // +0.2 equals the margin: no gain; +0.4 beats it.
    expect(statusesOf(run)).toEqual(['baseline', 'discard', 'keep']);
  });
});

describe('runLoop: candidates and confirmation', () => {
  it('evaluates search.candidates proposals and decides on the best one', async () => {
    const byCandidate = [promptWith(['alpha', 'bravo']), promptWith(['alpha', 'bravo', 'charlie'])];
    const mutator = mutatorScript([
      ({ request }) => ({
        hypothesis: `candidate ${request.sampleIndex}`,
        prompt: byCandidate[request.sampleIndex ?? 0]!,
      }),
      ({ request }) => ({
        hypothesis: `candidate ${request.sampleIndex}`,
        prompt: byCandidate[request.sampleIndex ?? 0]!,
      }),
    ]);
    const run = await runScripted({ mutator, search: { candidates: 2 }, budget: { iterations: 1 } });
    const iteration1 = timelineOf(run.events).filter((line) => / 1\/| 1 /.test(line));
    // The candidates are evaluated concurrently: their order in the journal is not fixed.
    expect([...iteration1.slice(0, 3), ...iteration1.slice(3, 5).sort(), ...iteration1.slice(5)]).toEqual([
      'start 1 focused',
      'proposal 1/0',
      'proposal 1/1',
      'evaluated 1/0 train 0.600 holdout 0.800',
      'evaluated 1/1 train 0.800 holdout 0.900',
      'finish 1 keep',
    ]);
    expect(finishedEvent(run.events, 1)).toMatchObject({ candidate: 1, hypothesis: 'candidate 1' });
    expect(await readFile(runPaths(run.runDir).best, 'utf8')).toBe(byCandidate[1]);
  });

  it('confirm: true re-evaluates a would-be keep with fresh samples before keeping it', async () => {
    // "fragile" prompts only work on their first sample.
    const fragile: ScriptedHandler = ({ request }) => {
      const text = lastUserMessage(request);
      return text.includes('fragile') && (request.sampleIndex ?? 0) >= 1 ? 'nothing useful' : text;
    };
    const mutator = mutatorScript([
      { hypothesis: 'Lucky once.', prompt: promptWith(['alpha', 'bravo', 'charlie', 'fragile']) },
      { hypothesis: 'Robust.', prompt: promptWith(['alpha', 'bravo', 'charlie']) },
    ]);
    const run = await runScripted({
      prompt: promptWith(['alpha', 'bravo']),
      mutator,
      generator: fragile,
      search: { confirm: true },
      budget: { iterations: 2 },
    });
    expect(timelineOf(run.events).filter((line) => line.startsWith('evaluated'))).toEqual([
      'evaluated 0/0 repeat 0 train 0.600 holdout 0.800',
      'evaluated 1/0 train 0.800 holdout 0.900',
      'evaluated 1/0 repeat 1 train 0.200 holdout 0.600',
      'evaluated 2/0 train 0.800 holdout 0.900',
      'evaluated 2/0 repeat 1 train 0.800 holdout 0.900',
    ]);
    // (0.8 + 0.2) / 2 = 0.5 < 0.6: the lucky draw is not kept.
    expect(statusesOf(run)).toEqual(['baseline', 'discard', 'keep']);
    expect(await readDecision(run.runDir, 1)).toMatchObject({
      confirmed: true,
      candidate: { train: expect.closeTo(0.5, 9) },
    });
    const confirmation = run.scripted
      .callsTo('gen')
      .filter((c) => lastUserMessage(c.request).includes('fragile'));
    expect(new Set(confirmation.map((c) => c.request.sampleIndex))).toEqual(new Set([0, 1]));
  });
});

describe('runLoop: the mutator strategy', () => {
  it('turns bold after bold_after non-improving iterations and focused again after a keep', async () => {
    const mutator = mutatorScript([
      { hypothesis: 'zulu', prompt: promptWith(['alpha', 'zulu']) },
      { hypothesis: 'yankee', prompt: promptWith(['alpha', 'yankee']) },
      // A duplicate neither counts nor resets the streak.
      promptWithReply(promptWith(['alpha'])),
      promptWithReply(promptWith(['alpha'])),
      promptWithReply(promptWith(['alpha'])),
      { hypothesis: 'Restructure around bravo.', prompt: promptWith(['bravo', 'alpha']) },
      { hypothesis: 'x-ray', prompt: promptWith(['alpha', 'bravo', 'xray']) },
    ]);
    const run = await runScripted({ mutator, search: { bold_after: 2 }, budget: { iterations: 5 } });
    expect(timelineOf(run.events).filter((l) => l.startsWith('start') || l.startsWith('finish'))).toEqual([
      'start 0 focused',
      'finish 0 baseline',
      'start 1 focused',
      'finish 1 discard',
      'start 2 focused',
      'finish 2 discard',
      'start 3 bold',
      'finish 3 duplicate',
      'start 4 bold',
      'finish 4 keep',
      'start 5 focused',
      'finish 5 discard',
    ]);
    const requests = run.scripted.callsTo('mut').map((c) => firstUserMessage(c.request));
    const strategies = requests.map((text) => /Mode for this round: (\w+)/.exec(text)?.[1]);
    expect(strategies).toEqual(['focused', 'focused', 'bold', 'bold', 'bold', 'bold', 'focused']);
    expect(requests[5]).toContain(BOLD_TASK_MARKER);
    expect(requests[5]).toContain('"strategy": "bold"');
    expect(requests[5]).toContain('"mode": "bold"');
    expect(requests[6]).not.toContain(BOLD_TASK_MARKER);
  });
});

function promptWithReply(prompt: string) {
  return { hypothesis: 'The same prompt.', prompt };
}

/** One scored iteration with one candidate: its lines in the timeline. */
function iteration(n: number, scores: string, status: string, strategy = 'focused'): string[] {
  return [
    `start ${n} ${strategy}`,
    `proposal ${n}/0`,
    `evaluated ${n}/0 ${scores}`,
    'spend generator 4',
    'spend mutator 1',
    `finish ${n} ${status}`,
  ];
}
