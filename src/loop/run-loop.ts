/**
 * The loop, as the product describes it:
 *
 *   baseline ─▶ [ propose ─▶ evaluate ─▶ decide ─▶ record/commit ] × N ─▶ final evaluation
 *
 * It stops at the first budget limit (before any call that could cross budget.usd), on `autoresearch stop`, on Ctrl-C (journaling the
 * iteration as interrupted), on auth/credit failures and after 3 error iterations in a row —
 * always leaving a run that `resume` continues.
 */
import { readFile } from 'node:fs/promises';
import { finalEvaluationCount } from '../experiment/iteration-plan.js';
import { loopCases, testCases } from '../experiment/loop-cases.js';
import { BatchWaitCutOff } from '../providers/batch/batch-runner.js';
import { BudgetReached } from '../providers/budget-reached.js';
import { ProviderError } from '../providers/types.js';
import type { StopReason } from '../run/events.js';
import { candidatePaths } from '../run/paths.js';
import { activeSecondsAt } from '../run/reducer.js';
import type { RunState } from '../run/run-state.js';
import { runBaseline } from './baseline.js';
import { checkBudget, estimateNextIteration } from './budget.js';
import { runFinalEvaluation } from './final-evaluation.js';
import { finishIteration } from './finish-iteration.js';
import { type IncumbentView, loadIncumbent } from './incumbent.js';
import { runIteration } from './iteration.js';
import type { LoopDeps, LoopRun } from './loop-deps.js';
import { createSpendMeter } from './spend.js';
import { watchSpendAlerts } from './spend-alerts.js';
import { reconcileLastKeep } from './record-keep.js';
import { baselineRepeats } from '../experiment/acceptance.js';
import { acceptanceFor } from './loop-state.js';

export interface LoopEnd {
  reason: StopReason;
  message: string;
  exitCode: 0 | 1 | 130;
}

export async function runLoop(deps: LoopDeps): Promise<LoopEnd> {
  // Everything the loop does sees only the cases it may evaluate: the sealed test cases never
  // reach a baseline, a candidate, a decision or the mutator, only the final evaluation.
  const run: LoopRun = {
    ...deps,
    experiment: { ...deps.experiment, cases: loopCases(deps.experiment) },
    testCases: testCases(deps.experiment),
    spend: createSpendMeter(deps.pool.ledger),
  };
  const stopAlerts = watchSpendAlerts(deps.pool.ledger, deps.recorder, deps.experiment.config.budget.usd);
  try {
    const end = await iterate(run);
    await deps.recorder.emit({ type: 'run_stopped', reason: end.reason, message: end.message });
    return end;
  } catch (error) {
    const end = classifyFailure(error, deps.signal);
    if (!end) throw error;
    await markOpenIterationInterrupted(run, end.message);
    await deps.recorder.emit({ type: 'run_stopped', reason: end.reason, message: end.message });
    return end;
  } finally {
    stopAlerts();
  }
}

async function iterate(deps: LoopRun): Promise<LoopEnd> {
  const { recorder, experiment } = deps;
  let state = recorder.state();
  if (state.open)
    await markOpenIterationInterrupted(deps, 'the run stopped during this iteration; redone on resume');
  state = recorder.state();
  if (!state.incumbent || state.pendingRebaseline) {
    const start = state.incumbent ? await readIncumbentPrompt(deps.runDir, state) : experiment.prompt;
    // A pool start's seeds join the first baseline only; a rebaseline re-scores the incumbent alone.
    const baseline = await runBaseline(deps, start, state.incumbent ? [] : (experiment.seeds ?? []));
    if (!baseline.ok) return { reason: 'errors', message: baseline.message, exitCode: 1 };
  }
  let incumbent = await loadIncumbent(deps.runDir, recorder.state());
  await reconcileLastKeep(deps, incumbent.prompt);
  // What the search derives from the journal (pareto: its pool refs): idempotent, so a crash before a sync loses none.
  await deps.strategy.sync(deps);

  for (;;) {
    if (deps.signal.aborted) throw deps.signal.reason ?? new Error('aborted');
    if (deps.stopRequested()) {
      return { reason: 'stop_requested', message: 'stopped by `autoresearch stop`', exitCode: 0 };
    }
    const verdict = budgetVerdict(deps, recorder.state(), incumbent);
    if (verdict.stop) {
      if (verdict.reason !== 'errors') await finalEvaluationWithinBudget(deps, incumbent);
      return {
        reason: verdict.reason,
        message: verdict.message,
        exitCode: verdict.reason === 'errors' ? 1 : 0,
      };
    }
    incumbent = await runIteration(deps, incumbent);
  }
}

/** Whether the budget lets another iteration start (resume asks it too, before it spends anything). */
export function budgetVerdict(
  deps: Pick<LoopDeps, 'experiment' | 'now' | 'planEstimate'>,
  state: RunState,
  incumbent: Pick<IncumbentView, 'train' | 'eligible'>,
) {
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

async function finalEvaluationWithinBudget(deps: LoopRun, incumbent: IncumbentView): Promise<void> {
  const state = deps.recorder.state();
  const baselineIteration = state.baseline?.iteration ?? 0;
  const baselinePrompt = await readFile(candidatePaths(deps.runDir, baselineIteration, 0).prompt, 'utf8');
  // The budget covers the final evaluation too: skip it (and say so) rather than overspend.
  const usd = deps.experiment.config.budget.usd;
  if (usd !== undefined) {
    const { search } = deps.experiment.config;
    const seeds = baselineIteration === 0 ? (deps.experiment.seeds?.length ?? 0) : 0;
    const repeats = baselineRepeats(search, acceptanceFor(deps)) + seeds;
    const baselineCost = state.iterations.find((it) => it.iteration === baselineIteration)?.costUsd ?? 0;
    // The final evaluation scores the test cases as well as the loop's.
    const cases = deps.experiment.cases.length;
    const perEvaluation = (baselineCost / repeats) * ((cases + deps.testCases.length) / Math.max(1, cases));
    const needed = perEvaluation * finalEvaluationCount(baselinePrompt, incumbent.prompt);
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

/** What the open iteration paid so far is journaled with it: the meter holds every call since the last take. */
async function markOpenIterationInterrupted(deps: LoopRun, message: string): Promise<void> {
  const open = deps.recorder.state().open;
  if (!open) return;
  await finishIteration(deps.recorder, {
    iteration: open.iteration,
    status: 'interrupted',
    incumbentBefore: deps.recorder.state().incumbent?.train ?? null,
    message,
    hypothesis: open.proposals[0]?.hypothesis ?? null,
    spend: deps.spend.take({ iteration: open.iteration }),
    seconds: (deps.now().getTime() - new Date(open.startedAt).getTime()) / 1000,
  });
}

function classifyFailure(error: unknown, signal: AbortSignal): LoopEnd | undefined {
  // `stop` or the hours budget cut a wait on batches short (docs/design/cost-engine.md): they stay
  // pending for resume.
  const cut = [error, signal.reason].find((e) => e instanceof BatchWaitCutOff);
  if (cut instanceof BatchWaitCutOff) return { reason: cut.reason, message: cut.message, exitCode: 0 };
  // A call refused by budget.usd aborted the run: the open iteration is redone on resume.
  const reached = [error, signal.reason].find((e) => e instanceof BudgetReached);
  if (reached instanceof BudgetReached)
    return {
      reason: 'usd',
      message: `${reached.message} — \`autoresearch resume --usd +X\` continues`,
      exitCode: 0,
    };
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
      // The provider's hint (e.g. a CLI's own login command) says how to fix it.
      message: `${error.message}${error.hint === undefined ? '' : ` (${error.hint})`} — fix it, then \`autoresearch resume\` continues`,
      exitCode: 1,
    };
  }
  return undefined;
}
