/**
 * The search seam (src/search/strategy.ts), proven by a third strategy that lives only here: a
 * restart search. Odd iterations revise the incumbent; even ones restart from the baseline's
 * prompt. One candidate per iteration, kept when it beats the incumbent's train score. It is
 * handed to the real loop (runLoop through the scripted harness), which knows nothing of it.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { standingOf } from '../../../src/evaluate/candidate-result.js';
import type { CandidateOutcome } from '../../../src/evaluate/evaluate-types.js';
import { evaluate } from '../../../src/evaluate/evaluate.js';
import { candidateDeps, candidateRequest } from '../../../src/loop/candidate-request.js';
import { type IncumbentView, loadCandidateEvaluation } from '../../../src/loop/incumbent.js';
import { feedbackFor } from '../../../src/loop/incumbent-feedback.js';
import type { LoopRun } from '../../../src/loop/loop-deps.js';
import { historyOf } from '../../../src/loop/loop-state.js';
import { type Proposal, proposeOne } from '../../../src/loop/propose.js';
import type { RunEvent } from '../../../src/run/events.js';
import { candidatePaths, iterationPaths } from '../../../src/run/paths.js';
import type { RunState } from '../../../src/run/run-state.js';
import type { SearchStrategy } from '../../../src/search/strategy.js';
import { cleanUpScriptedRuns, promptWith, runScripted, timelineOf } from '../../helpers/loop-harness.js';
import { firstUserMessage, mutatorScript } from '../../helpers/scripted-provider.js';

afterAll(cleanUpScriptedRuns);

/** The baseline as a view the mutator's feedback is built from. */
async function baselineView(deps: LoopRun, state: RunState): Promise<IncumbentView> {
  const iteration = state.baseline?.iteration ?? 0;
  const prompt = await readFile(candidatePaths(deps.runDir, iteration, 0).prompt, 'utf8');
  const stored = await loadCandidateEvaluation(deps.runDir, iteration, 0);
  return {
    iteration,
    candidate: 0,
    prompt,
    ...standingOf(stored.scores),
    evaluation: stored.evaluation,
    trainScore: stored.scores.train,
    scores: stored.scores,
  };
}

type Parent = { from: 'incumbent' | 'baseline'; view: IncumbentView };
type Evaluated = { proposal: Proposal | null; outcome: CandidateOutcome | null; parent: Parent };

const restartSearch: SearchStrategy<Parent, { proposal: Proposal | null; parent: Parent }, Evaluated> = {
  name: 'restart',
  seed: ({ promptSha256 }) => [
    { type: 'warning', message: `restart: seeded from ${promptSha256.slice(0, 8)}` },
  ],
  sync: async () => undefined,

  async plan({ deps, iteration, incumbent, state }) {
    const from = iteration % 2 === 0 ? 'baseline' : 'incumbent';
    const view = from === 'baseline' ? await baselineView(deps, state) : incumbent;
    return {
      events: [{ type: 'warning', message: `restart: iteration ${iteration} revises the ${from}` }],
      phase: 'mutating',
      plan: { from, view },
    };
  },

  async propose({ deps, state, mode }, parent) {
    const feedback = await feedbackFor(deps.experiment, deps.runDir, parent.view, historyOf(state), mode);
    const attempt = await proposeOne(
      {
        feedback,
        incumbent: parent.view.prompt,
        triedHashes: deps.recorder.triedPrompts(parent.view.prompt),
        maxGrowth: deps.experiment.config.search.max_growth,
        client: deps.pool.client('mutator'),
        signal: deps.signal,
      },
      0,
      new Set(),
    );
    return {
      attempts: [attempt],
      mutation: { search: 'restart', from: parent.from, feedback, attempt },
      proposed: { proposal: attempt.ok ? attempt.proposal : null, parent },
    };
  },

  async evaluate({ deps, iteration }, { proposal, parent }) {
    if (proposal === null) return { deciding: null, evaluated: { proposal, outcome: null, parent } };
    const request = candidateRequest(deps, {
      iteration,
      candidate: 0,
      prompt: proposal.prompt,
      sampleBase: 0,
    });
    const { outcome } = await evaluate(request, candidateDeps(deps, iteration));
    return { deciding: outcome.ok ? { candidate: 0 } : null, evaluated: { proposal, outcome, parent } };
  },

  async admit({ incumbent }, { proposal, outcome, parent }) {
    if (proposal === null || outcome === null || !outcome.ok) {
      const message = outcome !== null && !outcome.ok ? outcome.message : 'no proposal';
      return {
        status: 'error',
        fields: { errorKind: 'mutator_error', message },
        events: [],
        decision: { status: 'error', reason: message },
        keep: null,
      };
    }
    const standing = standingOf(outcome.scores);
    const status = standing.eligible && standing.train > incumbent.train ? 'keep' : 'discard';
    const message = `${standing.train.toFixed(2)} against the incumbent's ${incumbent.train.toFixed(2)}`;
    return {
      status,
      fields: {
        candidate: 0,
        train: standing.train,
        holdout: standing.holdout,
        delta: standing.train - incumbent.train,
        hypothesis: proposal.hypothesis,
        promptSha256: proposal.hash,
        message,
      },
      events: [],
      decision: { status, from: parent.from, reason: message },
      keep:
        status === 'keep'
          ? {
              candidate: 0,
              prompt: proposal.prompt,
              hypothesis: proposal.hypothesis,
              evaluated: outcome,
              standing,
            }
          : null,
    };
  },
};

/** The timeline with the phases and warnings kept: every event the loop journaled, in order. */
function eventsOf(events: readonly RunEvent[]): string[] {
  return events.flatMap((event) => {
    if (event.type === 'phase')
      return [
        `phase ${event.iteration} ${event.phase}${event.candidate === undefined ? '' : `/${event.candidate}`}`,
      ];
    if (event.type === 'warning') return [`warning ${event.message}`];
    return timelineOf([event]);
  });
}

describe('runLoop: a search strategy of its own, through the interface', () => {
  it('drives a whole run: seed, plan, propose, evaluate, admit, journal and keep', async () => {
    const baseline = promptWith(['alpha']);
    const mutator = mutatorScript([
      { hypothesis: 'Add bravo.', prompt: promptWith(['alpha', 'bravo']) },
      // A restart: revised from the baseline again, as good as the incumbent, so not kept.
      { hypothesis: 'Add charlie instead.', prompt: promptWith(['alpha', 'charlie']) },
      { hypothesis: 'Bravo and charlie.', prompt: promptWith(['alpha', 'bravo', 'charlie']) },
    ]);
    const run = await runScripted({
      prompt: baseline,
      mutator,
      strategy: restartSearch,
      budget: { iterations: 3 },
    });

    expect(run.end).toEqual({ reason: 'iterations', message: '3 of 3 iterations done', exitCode: 0 });
    expect(mutator.remaining()).toBe(0);
    const seedHash = run.recorder.state().baseline?.promptSha256?.slice(0, 8);
    const iteration = (n: number, from: string, train: string, status: string) => [
      `start ${n} focused`,
      `warning restart: iteration ${n} revises the ${from}`,
      `phase ${n} mutating`,
      `proposal ${n}/0`,
      `phase ${n} generating/0`,
      `phase ${n} checking/0`,
      `phase ${n} scoring/0`,
      `evaluated ${n}/0 train ${train}`,
      `phase ${n} deciding/0`,
      'spend generator 4',
      'spend mutator 1',
      `finish ${n} ${status}`,
    ];
    expect(eventsOf(run.events)).toEqual([
      'run_started',
      'start 0 focused',
      'phase 0 baseline',
      'phase 0 generating/0',
      'phase 0 checking/0',
      'phase 0 scoring/0',
      'evaluated 0/0 repeat 0 train 0.400 holdout 0.700',
      `warning restart: seeded from ${seedHash}`,
      'noise train 0.010 holdout 0.010',
      'spend generator 4',
      'finish 0 baseline',
      ...iteration(1, 'incumbent', '0.600 holdout 0.800', 'keep'),
      ...iteration(2, 'baseline', '0.600 holdout 0.800', 'discard'),
      ...iteration(3, 'incumbent', '0.800 holdout 0.900', 'keep'),
      'phase 3 final',
      'spend generator 8',
      'final baseline 0.400 best 0.800',
      'stopped iterations',
    ]);

    // Each request revised the prompt the plan chose: the restart saw the baseline, not the incumbent.
    const requests = run.scripted.calls
      .filter((c) => c.model === 'mut')
      .map((c) => firstUserMessage(c.request));
    expect(requests[1]).toContain('uses these words: alpha.');
    expect(requests[1]).not.toContain('alpha bravo');
    expect(requests[2]).toContain('uses these words: alpha bravo.');
    // The loop wrote the strategy's review files where every search's go.
    const mutation = JSON.parse(await readFile(iterationPaths(run.runDir, 2).mutation, 'utf8'));
    expect(mutation).toMatchObject({ search: 'restart', from: 'baseline', attempt: { ok: true } });
    const decision = JSON.parse(await readFile(iterationPaths(run.runDir, 3).decision, 'utf8'));
    expect(decision).toEqual({
      status: 'keep',
      from: 'incumbent',
      reason: "0.80 against the incumbent's 0.60",
    });
    expect(run.recorder.state().incumbent).toMatchObject({ iteration: 3, train: 0.8 });
    expect(await readFile(candidatePaths(run.runDir, 3, 0).prompt, 'utf8')).toBe(
      promptWith(['alpha', 'bravo', 'charlie']),
    );
  });
});
