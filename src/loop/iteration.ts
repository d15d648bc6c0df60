/**
 * One iteration, in the order the product describes it, whatever the search:
 *
 *   start ─▶ plan ─▶ propose ─▶ evaluate and decide each candidate ─▶ admit ─▶ journal ─▶ keep
 *
 * The search strategy (src/search/strategy.ts, passed in as `deps.strategy`) chooses the
 * parents, asks the mutator, evaluates and decides; this body owns the events around them,
 * the review files, the one `iteration_finished` and the commit of a keep.
 */
import { anchorSettings } from '../experiment/anchors.js';
import { planIteration } from '../experiment/iteration-plan.js';
import type { RunEventBody } from '../run/events.js';
import { writeDecision, writeMutation } from '../run/records.js';
import type { IterationStart, SearchStrategy } from '../search/strategy.js';
import { finishIteration } from './finish-iteration.js';
import { type IncumbentView, incumbentView } from './incumbent.js';
import { checkJudgeDrift } from './judge-anchors.js';
import type { LoopRun } from './loop-deps.js';
import { acceptanceFor, modeField } from './loop-state.js';
import { recordKeep } from './record-keep.js';
import { replayStrategy } from './strategy.js';

export async function runIteration(deps: LoopRun, incumbent: IncumbentView): Promise<IncumbentView> {
  const { recorder } = deps;
  const strategy: SearchStrategy = deps.strategy;
  const state = recorder.state();
  const iteration = state.nextIteration;
  const startedAt = deps.now();
  const mode = replayStrategy(
    state.iterations.map((it) => it.status),
    deps.experiment.config.search.bold_after,
  ).strategy;
  const schedule = planIteration({
    search: deps.experiment.config.search,
    strategy: strategy.name,
    acceptance: acceptanceFor(deps),
    cases: deps.experiment.cases,
    iteration,
    anchorEvery: anchorSettings(deps.experiment)?.every ?? null,
  });
  const start: IterationStart = { deps, iteration, mode, incumbent, state, schedule };

  await recorder.emit({ type: 'iteration_started', iteration, ...modeField(deps, mode) });
  const planned = await strategy.plan(start);
  if (planned.events.length > 0) await recorder.emit(...planned.events);
  await recorder.emit({ type: 'phase', iteration, phase: planned.phase });

  const proposed = await strategy.propose(start, planned.plan);
  await writeMutation(deps.runDir, iteration, proposed.mutation);
  await recorder.emit(
    ...proposed.attempts.flatMap((a): RunEventBody[] =>
      a.ok
        ? [
            {
              type: 'proposal',
              iteration,
              candidate: a.proposal.candidate,
              hypothesis: a.proposal.hypothesis,
              promptSha256: a.proposal.hash,
              duplicate: false,
            },
          ]
        : [],
    ),
  );
  deps.checkpoint?.('proposed');

  const evaluated = await strategy.evaluate(start, proposed.proposed);
  const { deciding } = evaluated;
  if (deciding !== null)
    await recorder.emit({
      type: 'phase',
      iteration,
      phase: 'deciding',
      ...(deciding.candidate === undefined ? {} : { candidate: deciding.candidate }),
    });
  const admission = await strategy.admit(start, evaluated.evaluated);

  // Artifacts first, then the journal: a finished iteration is never redone, so its files must exist.
  await writeDecision(deps.runDir, iteration, admission.decision);
  // A drift check when one is due (docs/design/judge-reliability.md), journaled with the
  // iteration's end.
  const anchors = schedule.driftCheck ? await checkJudgeDrift(deps, iteration) : [];
  await finishIteration(
    recorder,
    {
      iteration,
      status: admission.status,
      incumbentBefore: incumbent.train,
      ...admission.fields,
      spend: deps.spend.take({ iteration }),
      seconds: (deps.now().getTime() - startedAt.getTime()) / 1000,
    },
    [...admission.events, ...anchors],
  );
  await strategy.sync(deps);

  const { keep } = admission;
  if (keep === null) return incumbent;
  // The kept candidate becomes the incumbent: committed, and the view the next iteration compares with.
  await recordKeep(deps, {
    iteration,
    prompt: keep.prompt,
    from: incumbent.train,
    to: keep.standing.train,
    hypothesis: keep.hypothesis,
    ...(keep.member === undefined ? {} : { member: keep.member }),
  });
  return incumbentView(
    {
      iteration,
      candidate: keep.candidate,
      prompt: keep.prompt,
      evaluation: keep.evaluated.evaluation,
      scores: keep.evaluated.scores,
    },
    keep.standing,
  );
}
