/**
 * The baseline: the starting prompt evaluated on the loop's cases. Under `margin` with `auto`
 * it is evaluated `noise_repeats` times with fresh samples: their mean is the incumbent's
 * score and their spread the noise margin a candidate must beat. Paired acceptance measures
 * noise per decision, so it needs one evaluation. A pool start's seeds (`run --from <run>/pool`)
 * are evaluated beside it, as the iteration's next candidates, and handed to the search's seed.
 */
import { standingOf } from '../evaluate/candidate-result.js';
import type { StartSeed } from '../experiment/types.js';
import type { GateFailure } from '../scoring/index.js';
import { cutText, toOneLine } from './text.js';
import { writeBest, writeDecision } from '../run/records.js';
import { baselineFrom, marginFrom } from './decide.js';
import { evaluate } from '../evaluate/evaluate.js';
import { candidateDeps, candidateRequest } from './candidate-request.js';
import { finishIteration } from './finish-iteration.js';
import type { LoopRun } from './loop-deps.js';
import { hashPrompt } from '../prompt-hash.js';
import { measureJudgeNoise } from './judge-anchors.js';
import { baselineRepeats } from '../experiment/acceptance.js';
import { acceptanceFor, modeField } from './loop-state.js';

export type BaselineResult = { ok: true } | { ok: false; message: string };

export async function runBaseline(
  deps: LoopRun,
  prompt: string,
  seeds: readonly StartSeed[] = [],
): Promise<BaselineResult> {
  const { experiment, recorder } = deps;
  const { search } = experiment.config;
  const iteration = recorder.state().nextIteration;
  const startedAt = deps.now();
  const acceptance = acceptanceFor(deps);
  const repeats = baselineRepeats(search, acceptance);

  await recorder.emit({ type: 'iteration_started', iteration, ...modeField(deps, 'focused') });
  await recorder.emit({ type: 'phase', iteration, phase: 'baseline' });
  const outcomes = await Promise.all(
    Array.from({ length: repeats }, async (_, repeat) => {
      const request = candidateRequest(deps, {
        iteration,
        candidate: repeat,
        prompt,
        sampleBase: repeat * search.samples,
        repeat,
      });
      return (await evaluate(request, candidateDeps(deps, iteration))).outcome;
    }),
  );
  // Each seed once, at sample 0 like the baseline's first evaluation: the cases' draws are the same.
  const seeded = await Promise.all(
    seeds.map(async ({ text, origin }, i) => {
      const candidate = repeats + i;
      const request = candidateRequest(deps, { iteration, candidate, prompt: text, sampleBase: 0 });
      const { outcome } = await evaluate(request, candidateDeps(deps, iteration));
      return { candidate, text, origin, outcome };
    }),
  );
  const failed = [...outcomes, ...seeded.map((s) => s.outcome)].find((o) => !o.ok);
  const first = outcomes[0];
  // Drift anchors (docs/design/judge-reliability.md): the judge's noise, journaled with the
  // baseline and paid as part of it.
  const anchors =
    failed === undefined && first?.ok === true
      ? await measureJudgeNoise(deps, { iteration, evaluation: first.evaluation, train: first.scores.train })
      : [];
  const spend = deps.spend.take({ iteration });
  const seconds = (deps.now().getTime() - startedAt.getTime()) / 1000;
  if (failed && !failed.ok) {
    await writeDecision(deps.runDir, iteration, {
      status: 'error',
      errorKind: failed.errorKind,
      reason: failed.message,
    });
    await finishIteration(recorder, {
      iteration,
      status: 'error',
      errorKind: failed.errorKind,
      message: failed.message,
      promptSha256: hashPrompt(prompt),
      spend,
      seconds,
    });
    return { ok: false, message: `the baseline could not be evaluated: ${failed.message}` };
  }
  const scored = outcomes.flatMap((o) => (o.ok ? [o] : []));
  const standings = scored.map((o) => standingOf(o.scores));
  const hasHoldout = experiment.cases.some((c) => c.split === 'holdout');
  const noise = {
    train: standings.map((s) => s.train),
    holdout: hasHoldout ? standings.map((s) => s.holdout ?? 0) : [],
  };
  const margin = marginFrom(search.min_improvement, noise);
  const mean = baselineFrom(noise);
  // What the search keeps of the starting prompt (pareto: the pool's seed), journaled with the baseline.
  const seed =
    first?.ok === true
      ? deps.strategy.seed({
          deps,
          iteration,
          promptSha256: hashPrompt(prompt),
          evaluated: first,
          seeds: seeded.flatMap(({ candidate, text, origin, outcome }) =>
            outcome.ok ? [{ candidate, origin, promptSha256: hashPrompt(text), evaluated: outcome }] : [],
          ),
        })
      : [];
  // Artifacts first, then the journal: a finished iteration is never redone, so its files must exist.
  await writeDecision(deps.runDir, iteration, {
    status: 'baseline',
    repeats: noise,
    margin,
    mean,
  });
  await finishIteration(
    recorder,
    {
      iteration,
      status: 'baseline',
      candidate: 0,
      train: mean.train,
      holdout: mean.holdout,
      promptSha256: hashPrompt(prompt),
      spend,
      seconds,
    },
    // Paired acceptance measures noise per decision: no margin to journal.
    acceptance === 'paired'
      ? [...seed, ...anchors]
      : [
          ...seed,
          ...anchors,
          {
            type: 'noise_margin',
            iteration,
            train: margin.train,
            holdout: hasHoldout ? margin.holdout : null,
            repeats: scored.map((_o, i) => ({
              train: noise.train[i] ?? null,
              holdout: hasHoldout ? (noise.holdout[i] ?? null) : null,
            })),
            mean: { train: mean.train, holdout: mean.holdout },
          },
        ],
  );
  await writeBest(deps.runDir, prompt);
  if (first?.ok === true && first.scores.all.gateFailed) {
    await recorder.emit({ type: 'warning', iteration, message: describeGateFailures(first.scores.all) });
  }
  return { ok: true };
}

/**
 * A starting prompt that fails a gate stays the baseline, but every eligible candidate replaces it
 * whatever its score (docs/design/scoring-and-decisions.md): worth saying at once, with which gates
 * and how widely, since a gate no proposal can pass leaves the run comparing ineligible prompts.
 */
export function describeGateFailures(all: {
  cases: readonly { caseId: string }[];
  gateFailures: readonly GateFailure[];
}): string {
  const casesPerCheck = new Map<string, Set<string>>();
  for (const failure of all.gateFailures) {
    const cases = casesPerCheck.get(failure.check) ?? new Set<string>();
    cases.add(failure.caseId);
    casesPerCheck.set(failure.check, cases);
  }
  const failing = new Set(all.gateFailures.map((f) => f.caseId));
  const total = all.cases.length;
  const checks = [...casesPerCheck]
    .map(([check, cases]) => `${check} on ${cases.size} of ${total}`)
    .join(', ');
  const first = all.gateFailures[0];
  const example = first ? ` (${first.caseId}: ${cutText(toOneLine(first.reason), 120)})` : '';
  const every = failing.size === total ? 'every case' : `${failing.size} of ${total} cases`;
  return `the starting prompt fails a gate on ${every} — ${checks}${example}. It stays the baseline, but the first candidate that passes every gate replaces it whatever its score; check the gate can be met if no proposal gets there.`;
}
