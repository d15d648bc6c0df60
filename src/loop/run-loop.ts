/**
 * The loop, as the product describes it:
 *
 *   baseline ─▶ [ propose ─▶ evaluate ─▶ decide ─▶ record/commit ] × N ─▶ final check
 *
 * It stops at the first budget limit, on `autoresearch stop`, on Ctrl-C (journaling the
 * iteration as interrupted), on auth/credit failures and after 3 error iterations in a row —
 * always leaving a run that `resume` continues.
 */
import { readFile } from 'node:fs/promises';
import { ROLES, type Role } from '../experiment/names.js';
import { ProviderError } from '../providers/types.js';
import type { StopReason } from '../run/events.js';
import { candidatePaths } from '../run/paths.js';
import { activeSecondsAt } from '../run/reducer.js';
import type { RunState } from '../run/run-state.js';
import { runBaseline } from './baseline.js';
import { checkBudget, estimateNextIteration } from './budget.js';
import { runFinalEvaluation } from './final-evaluation.js';
import { type IncumbentView, loadIncumbent } from './incumbent.js';
import { runIteration } from './iteration.js';
import type { LoopDeps } from './loop-deps.js';
import { reconcileLastKeep } from './record-keep.js';

export interface LoopEnd {
  reason: StopReason;
  message: string;
  exitCode: 0 | 1 | 130;
}

export async function runLoop(deps: LoopDeps): Promise<LoopEnd> {
  const journaledAtStart = deps.recorder.state().spend;
  try {
    const end = await iterate(deps);
    await deps.recorder.emit({ type: 'run_stopped', reason: end.reason, message: end.message });
    return end;
  } catch (error) {
    const end = classifyFailure(error, deps.signal);
    if (!end) throw error;
    await markOpenIterationInterrupted(deps, end.message, unjournaledSpend(deps, journaledAtStart));
    await deps.recorder.emit({ type: 'run_stopped', reason: end.reason, message: end.message });
    return end;
  }
}

async function iterate(deps: LoopDeps): Promise<LoopEnd> {
  const { recorder, experiment } = deps;
  let state = recorder.state();
  if (state.open)
    await markOpenIterationInterrupted(deps, 'the run stopped during this iteration; redone on resume');
  state = recorder.state();
  if (!state.incumbent || state.pendingRebaseline) {
    const start = state.incumbent ? await readIncumbentPrompt(deps.runDir, state) : experiment.prompt;
    const baseline = await runBaseline(deps, start);
    if (!baseline.ok) return { reason: 'errors', message: baseline.message, exitCode: 1 };
  }
  let incumbent = await loadIncumbent(deps.runDir, recorder.state());
  await reconcileLastKeep(deps, incumbent.prompt);

  for (;;) {
    if (deps.signal.aborted) throw deps.signal.reason ?? new Error('aborted');
    if (deps.stopRequested()) {
      return { reason: 'stop_requested', message: 'stopped by `autoresearch stop`', exitCode: 0 };
    }
    const verdict = budgetVerdict(deps, recorder.state(), incumbent);
    if (verdict.stop) {
      if (verdict.reason !== 'errors') await finalCheck(deps, incumbent);
      return {
        reason: verdict.reason,
        message: verdict.message,
        exitCode: verdict.reason === 'errors' ? 1 : 0,
      };
    }
    incumbent = await runIteration(deps, incumbent);
  }
}

function budgetVerdict(deps: LoopDeps, state: RunState, incumbent: IncumbentView) {
  const past = state.iterations
    .filter((it) => it.status !== 'baseline' && it.status !== 'interrupted')
    .map((it) => ({ usd: it.costUsd, seconds: it.seconds }));
  const estimate = estimateNextIteration(past, deps.planEstimate ?? { usd: null, seconds: null });
  const { budget } = deps.experiment.config;
  return checkBudget({
    budget: {
      iterations: budget.iterations,
      hours: budget.hours,
      patience: budget.patience,
      ...(budget.usd === undefined ? {} : { usd: budget.usd }),
      ...(budget.target === undefined ? {} : { target: budget.target }),
    },
    state: {
      iterationsDone: state.completedIterations,
      activeSeconds: activeSecondsAt(state, deps.now()),
      spentUsd: state.spend.usd,
      nonImproving: state.counters.nonImproving,
      consecutiveErrors: state.counters.consecutiveErrors,
      incumbentTrain: incumbent.train,
      incumbentEligible: incumbent.eligible,
    },
    estimateNextUsd: estimate.usd,
    estimateNextSeconds: estimate.seconds,
  });
}

async function finalCheck(deps: LoopDeps, incumbent: IncumbentView): Promise<void> {
  const state = deps.recorder.state();
  const baselineIteration = state.baseline?.iteration ?? 0;
  const baselinePrompt = await readFile(candidatePaths(deps.runDir, baselineIteration, 0).prompt, 'utf8');
  // The budget covers the final check too: skip it (and say so) rather than overspend.
  const usd = deps.experiment.config.budget.usd;
  if (usd !== undefined) {
    const { search } = deps.experiment.config;
    const repeats = search.min_improvement === 'auto' ? search.noise_repeats : 1;
    const baselineCost = state.iterations.find((it) => it.iteration === baselineIteration)?.costUsd ?? 0;
    const needed = (baselineCost / repeats) * (baselinePrompt === incumbent.prompt ? 1 : 2);
    if (state.spend.usd + needed > usd) {
      await deps.recorder.emit({
        type: 'warning',
        message: `final check skipped: about $${needed.toFixed(3)} more would exceed the $${usd} budget (resume with --usd +X to run it)`,
      });
      return;
    }
  }
  await runFinalEvaluation(deps, {
    baseline: baselinePrompt,
    best: incumbent.prompt,
    bestIteration: incumbent.iteration,
  });
}

async function readIncumbentPrompt(runDir: string, state: RunState): Promise<string> {
  const incumbent = state.incumbent;
  if (!incumbent) throw new Error('no incumbent');
  const record = state.iterations.find((it) => it.iteration === incumbent.iteration);
  return readFile(candidatePaths(runDir, incumbent.iteration, record?.candidate ?? 0).prompt, 'utf8');
}

/** What this session paid that no `spend` event holds yet: the calls of an iteration cut short. */
function unjournaledSpend(
  deps: LoopDeps,
  atStart: RunState['spend'],
): { role: Role; usd: number; calls: number }[] {
  const now = deps.recorder.state().spend;
  const ledger = deps.pool.ledger.snapshot();
  return ROLES.flatMap((role) => {
    const paid = ledger.byRole[role];
    if (!paid) return [];
    const journaled = now.byRole[role].usd - atStart.byRole[role].usd;
    const journaledCalls = now.byRole[role].calls - atStart.byRole[role].calls;
    const usd = Math.max(0, paid.usd - journaled);
    const calls = Math.max(0, paid.calls - journaledCalls);
    return calls > 0 || usd > 0 ? [{ role, usd, calls }] : [];
  });
}

async function markOpenIterationInterrupted(
  deps: LoopDeps,
  message: string,
  spend: { role: Role; usd: number; calls: number }[] = [],
): Promise<void> {
  const open = deps.recorder.state().open;
  if (!open) return;
  await deps.recorder.emit(
    ...spend.map((s) => ({ type: 'spend' as const, ...s, iteration: open.iteration })),
    {
      type: 'iteration_finished',
      iteration: open.iteration,
      status: 'interrupted',
      candidate: null,
      train: null,
      holdout: null,
      incumbentBefore: deps.recorder.state().incumbent?.train ?? null,
      delta: null,
      message,
      hypothesis: open.proposals[0]?.hypothesis ?? null,
      promptSha256: null,
      costUsd: spend.reduce((sum, s) => sum + s.usd, 0),
      seconds: Math.max(0, (deps.now().getTime() - new Date(open.startedAt).getTime()) / 1000),
    },
  );
}

function classifyFailure(error: unknown, signal: AbortSignal): LoopEnd | undefined {
  if (signal.aborted || (error instanceof ProviderError && error.kind === 'aborted')) {
    return {
      reason: 'interrupted',
      message: 'interrupted (Ctrl-C); `autoresearch resume` continues',
      exitCode: 130,
    };
  }
  if (error instanceof ProviderError && error.stopsRun) {
    return {
      reason: error.kind === 'auth' ? 'auth' : 'credit',
      message: `${error.message} — fix it, then \`autoresearch resume\` continues`,
      exitCode: 1,
    };
  }
  return undefined;
}
