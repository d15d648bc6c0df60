/**
 * The run-state fold, one event at a time. The recorder applies each event as it journals it,
 * so a long run costs O(1) per event instead of re-folding the whole journal on every emit.
 * Every state() is a snapshot: applying later events never changes one handed out before.
 */
import { ROLES } from '../experiment/roles.js';
import { isFinishingReason } from './events.js';
import type { EventOf, RunEvent } from './events.js';
import {
  finishIteration,
  startIteration,
  toEvaluation,
  updateAttempt,
  type IterationDraft,
} from './fold-iterations.js';
import type { IterationRecord, OpenIteration, RoleSpend, RunState, SpendTotals } from './run-state.js';
import {
  addDecision,
  addMember,
  addParentChoice,
  copyPool,
  emptyPool,
  finishPoolIteration,
  startPoolIteration,
} from './fold-pool.js';

export interface RunFold {
  apply(event: RunEvent): void;
  state(): RunState;
}

type Draft = RunState & IterationDraft;

/** Events that can add or change an iteration record (everything else leaves `iterations` alone). */
const RECORD_EVENTS: ReadonlySet<RunEvent['type']> = new Set([
  'iteration_started',
  'iteration_finished',
  'commit',
]);

export function createRunFold(): RunFold {
  const draft = createDraft();
  let snapshot: RunState | undefined;
  let records: RecordList | undefined;
  return {
    apply(event) {
      applyEvent(draft, event);
      draft.lastEventAt = event.at;
      snapshot = undefined;
      if (RECORD_EVENTS.has(event.type)) records = undefined;
    },
    state() {
      records ??= listRecords(draft);
      snapshot ??= finish(draft, records);
      return snapshot;
    },
  };
}

interface RecordList {
  iterations: IterationRecord[];
  completed: number;
}

function listRecords(draft: Draft): RecordList {
  const iterations = [...draft.records.values()].sort((a, b) => a.iteration - b.iteration);
  const completed = iterations.filter((r) => r.status !== 'baseline' && r.status !== 'interrupted').length;
  return { iterations, completed };
}

/** Active seconds as of `now`, counting the open period up to `now` (for live hour budgets). */
export function activeSecondsAt(state: RunState, now: Date): number {
  if (state.active.openSince === null) return state.active.closedSeconds;
  return state.active.closedSeconds + secondsBetween(state.active.openSince, now.toISOString());
}

function createDraft(): Draft {
  return {
    start: null,
    journalStatus: 'empty',
    resumes: 0,
    iterations: [],
    completedIterations: 0,
    nextIteration: 0,
    open: null,
    lastPhase: null,
    baseline: null,
    incumbent: null,
    noise: null,
    counters: { nonImproving: 0, consecutiveErrors: 0, discardsInARow: 0 },
    spend: emptySpend(),
    spendAlerts: [],
    active: { closedSeconds: 0, openSince: null, seconds: 0 },
    commits: [],
    expectedHead: null,
    pendingRebaseline: false,
    stop: null,
    finalEvaluation: null,
    warnings: [],
    calibration: null,
    judgeAnchors: { noise: null, checks: [] },
    pool: null,
    lastEventAt: null,
    attempts: new Map(),
    records: new Map(),
  };
}

function applyEvent(draft: Draft, event: RunEvent): void {
  switch (event.type) {
    case 'run_started':
      closeActivePeriod(draft, draft.lastEventAt);
      draft.start = {
        runId: event.runId,
        kind: event.kind,
        experiment: event.experiment,
        configDigest: event.configDigest,
        overrides: event.overrides,
        git: event.git,
        simulated: event.simulated,
        startedAt: event.at,
      };
      draft.active.openSince = event.at;
      draft.stop = null;
      return;
    case 'run_resumed':
      // A resume after a crash: the crashed period ended with the last event it journaled.
      closeActivePeriod(draft, draft.lastEventAt);
      draft.active.openSince = event.at;
      draft.resumes += 1;
      draft.stop = null;
      if (event.rebaseline) draft.pendingRebaseline = true;
      return;
    case 'iteration_started':
      startIteration(draft, event);
      startPoolIteration(draft.pool, event.iteration);
      return;
    case 'phase':
      draft.lastPhase = { iteration: event.iteration, phase: event.phase, at: event.at };
      updateAttempt(draft, event.iteration, (attempt) => {
        attempt.phase = event.phase;
        if (event.phase === 'retesting') attempt.retesting = true;
        attempt.candidate = event.candidate ?? null;
        attempt.progress =
          event.done !== undefined && event.total !== undefined
            ? { done: event.done, total: event.total }
            : null;
      });
      return;
    case 'proposal':
      updateAttempt(draft, event.iteration, (attempt) => {
        attempt.proposals.push({
          candidate: event.candidate,
          hypothesis: event.hypothesis,
          promptSha256: event.promptSha256,
          duplicate: event.duplicate,
        });
      });
      return;
    case 'candidate_evaluated':
      updateAttempt(draft, event.iteration, (attempt) => attempt.evaluations.push(toEvaluation(event)));
      return;
    case 'noise_margin':
      draft.noise = {
        iteration: event.iteration,
        train: event.train,
        holdout: event.holdout,
        repeats: event.repeats,
        mean: event.mean,
      };
      return;
    case 'iteration_finished':
      finishIteration(draft, event);
      finishPoolIteration(draft.pool, event);
      return;
    case 'parent_chosen':
      draft.pool ??= emptyPool();
      addParentChoice(draft.pool, event);
      return;
    case 'candidate_decided':
      draft.pool ??= emptyPool();
      addDecision(draft.pool, event);
      return;
    case 'pool_member':
      draft.pool ??= emptyPool();
      addMember(draft.pool, event);
      return;
    case 'commit': {
      draft.commits.push({ iteration: event.iteration, sha: event.sha });
      // The loop journals a keep before committing it, so the commit usually follows the finish.
      const record = draft.records.get(event.iteration);
      // Phase events after the finish (`committing`, `final`) leave an attempt that was never started.
      const redoing = (draft.attempts.get(event.iteration)?.startedAt ?? '') !== '';
      if (record?.status === 'keep' && !redoing) {
        // Replaced, not changed in place: earlier snapshots hold the old record.
        draft.records.set(event.iteration, { ...record, commit: event.sha });
        if (draft.incumbent?.iteration === event.iteration) {
          draft.incumbent = { ...draft.incumbent, commit: event.sha };
        }
        return;
      }
      updateAttempt(draft, event.iteration, (attempt) => {
        attempt.commit = event.sha;
      });
      return;
    }
    case 'spend':
      addSpend(draft.spend, event);
      return;
    case 'spend_alert':
      draft.spendAlerts.push({
        threshold: event.threshold,
        spentUsd: event.spentUsd,
        budgetUsd: event.budgetUsd,
        iteration: event.iteration ?? null,
      });
      return;
    case 'final_evaluation':
      draft.finalEvaluation = { baseline: event.baseline, best: event.best };
      return;
    case 'run_stopped':
      closeActivePeriod(draft, event.at);
      draft.stop = { reason: event.reason, message: event.message, at: event.at };
      return;
    case 'warning':
      draft.warnings.push({ at: event.at, message: event.message, iteration: event.iteration ?? null });
      return;
    case 'calibrated':
      draft.calibration = { labels: event.labels, lowestKappa: event.lowestKappa };
      return;
    case 'judge_noise':
      draft.judgeAnchors.noise = {
        iteration: event.iteration,
        anchors: event.anchors.length,
        noise: event.noise,
        decisionNoise: event.decisionNoise,
      };
      return;
    case 'judge_drift':
      draft.judgeAnchors.checks.push({
        iteration: event.iteration,
        baseline: event.baseline,
        anchors: event.anchors.length,
        mean: event.mean,
        lo: event.lo,
        hi: event.hi,
        band: event.band,
        beyondNoise: event.beyondNoise,
      });
      return;
  }
}

function emptyRoleSpend(): RoleSpend {
  return {
    usd: 0,
    calls: 0,
    batchCalls: 0,
    cachedCalls: 0,
    inputTokens: 0,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    outputTokens: 0,
  };
}

function emptySpend(): SpendTotals {
  const byRole = Object.fromEntries(ROLES.map((role) => [role, emptyRoleSpend()]));
  return { ...emptyRoleSpend(), byRole: byRole as SpendTotals['byRole'] };
}

/** A journal written before the token counts (docs/design/cost-engine.md) adds none of them. */
function addRoleSpend(totals: RoleSpend, event: EventOf<'spend'>): void {
  totals.usd += event.usd;
  totals.calls += event.calls;
  totals.batchCalls += event.batchCalls ?? 0;
  totals.cachedCalls += event.cachedCalls ?? 0;
  totals.inputTokens += event.inputTokens ?? 0;
  totals.cacheWriteTokens += event.cacheWriteTokens ?? 0;
  totals.cacheReadTokens += event.cacheReadTokens ?? 0;
  totals.outputTokens += event.outputTokens ?? 0;
}

function addSpend(spend: SpendTotals, event: EventOf<'spend'>): void {
  addRoleSpend(spend, event);
  addRoleSpend(spend.byRole[event.role], event);
}

function copySpend(spend: SpendTotals): SpendTotals {
  const { byRole: roles, ...totals } = spend;
  const byRole = Object.fromEntries(
    Object.entries(roles).map(([role, totals]) => [role, { ...totals }]),
  ) as SpendTotals['byRole'];
  return { ...totals, byRole };
}

function copyOpen(attempt: OpenIteration): OpenIteration {
  return {
    ...attempt,
    progress: attempt.progress === null ? null : { ...attempt.progress },
    proposals: [...attempt.proposals],
    evaluations: [...attempt.evaluations],
  };
}

function closeActivePeriod(draft: Draft, end: string | null): void {
  if (draft.active.openSince === null || end === null) return;
  draft.active.closedSeconds += secondsBetween(draft.active.openSince, end);
  draft.active.openSince = null;
}

function secondsBetween(from: string, to: string): number {
  // Clocks can step backwards (NTP, sleep); a period never counts negative time.
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}

/** The state as of the events applied so far; the draft's mutable parts are copied out. */
function finish(draft: Draft, { iterations, completed }: RecordList): RunState {
  const open = [...draft.attempts.values()].find((a) => a.startedAt !== '') ?? null;
  const last = iterations.at(-1);
  let nextIteration =
    last === undefined ? 0 : last.status === 'interrupted' ? last.iteration : last.iteration + 1;
  if (open) nextIteration = open.iteration;
  const openSeconds =
    draft.active.openSince !== null && draft.lastEventAt !== null
      ? secondsBetween(draft.active.openSince, draft.lastEventAt)
      : 0;
  return {
    start: draft.start,
    journalStatus: journalStatus(draft),
    resumes: draft.resumes,
    iterations,
    completedIterations: completed,
    nextIteration,
    open: open === null ? null : copyOpen(open),
    lastPhase: draft.lastPhase,
    baseline: draft.baseline,
    incumbent: draft.incumbent === null ? null : { ...draft.incumbent },
    noise: draft.noise,
    counters: { ...draft.counters },
    spend: copySpend(draft.spend),
    spendAlerts: [...draft.spendAlerts],
    active: { ...draft.active, seconds: draft.active.closedSeconds + openSeconds },
    commits: [...draft.commits],
    expectedHead:
      draft.commits.at(-1)?.sha ?? draft.start?.git?.baselineCommit ?? draft.start?.git?.base ?? null,
    pendingRebaseline: draft.pendingRebaseline,
    stop: draft.stop,
    finalEvaluation: draft.finalEvaluation,
    warnings: [...draft.warnings],
    calibration: draft.calibration,
    judgeAnchors: { noise: draft.judgeAnchors.noise, checks: [...draft.judgeAnchors.checks] },
    pool: copyPool(draft.pool),
    lastEventAt: draft.lastEventAt,
  };
}

function journalStatus(draft: Draft): RunState['journalStatus'] {
  if (draft.start === null) return 'empty';
  if (draft.stop === null) return 'open';
  return isFinishingReason(draft.stop.reason) ? 'finished' : 'stopped';
}
