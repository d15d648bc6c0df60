/**
 * `results.tsv`: one row per iteration, derived from the run state (never a second source of
 * truth). Tabs, newlines and backslashes inside hypotheses are escaped so every row is one line.
 *
 * Under the pareto search (a run with a pool, docs/design/pareto-search.md) one row per candidate
 * instead, with the `candidate`, `parents` and `member` columns after `iteration`: its score, its
 * difference and interval against its parent, its status (`keep` for the member that moved the
 * best, else `pooled` or what turned it away). The signal columns are filled on the row of the
 * candidate the iteration's status is about; the iteration's cost and seconds on its first row. An
 * iteration without candidates (the baseline, one interrupted) keeps its one row.
 */
import type { CandidateDecisionRecord, IterationRecord, PoolState, RunState } from './run-state.js';

export const RESULTS_COLUMNS = [
  'iteration',
  'commit',
  'score',
  'best',
  'delta',
  'delta_lo',
  'delta_hi',
  'n_cases',
  'checks',
  'judge',
  'expectations',
  'holdout',
  'status',
  'cost_usd',
  'seconds',
  'hypothesis',
] as const;

/** The pareto search's columns: the candidate and its lineage after `iteration`. */
export const PARETO_RESULTS_COLUMNS = [
  'iteration',
  'candidate',
  'parents',
  'member',
  ...RESULTS_COLUMNS.slice(1),
] as const;

type Cells = Record<(typeof PARETO_RESULTS_COLUMNS)[number], string>;

export function formatResultsTsv(state: RunState): string {
  if (state.pool !== null) return formatParetoTsv(state, state.pool);
  const rows = state.iterations.map((record) => {
    const cells = iterationCells(record);
    return RESULTS_COLUMNS.map((column) => cells[column]).join('\t');
  });
  return [RESULTS_COLUMNS.join('\t'), ...rows].join('\n') + '\n';
}

function formatParetoTsv(state: RunState, pool: PoolState): string {
  const byIteration = new Map<number, CandidateDecisionRecord[]>();
  for (const decision of pool.decisions) {
    const list = byIteration.get(decision.iteration) ?? [];
    list.push(decision);
    byIteration.set(decision.iteration, list);
  }
  const memberOf = new Map(pool.members.map((m) => [`${m.iteration}:${m.candidate}`, m.id]));
  const rows = state.iterations.flatMap((record) => {
    const decisions = byIteration.get(record.iteration) ?? [];
    if (decisions.length === 0) {
      const member = memberOf.get(`${record.iteration}:${record.candidate ?? 0}`) ?? '';
      return [{ ...iterationCells(record), candidate: String(record.candidate ?? ''), parents: '', member }];
    }
    return decisions.map((decision, index) => candidateCells(record, decision, index === 0));
  });
  const lines = rows.map((cells) => PARETO_RESULTS_COLUMNS.map((column) => cells[column]).join('\t'));
  return [PARETO_RESULTS_COLUMNS.join('\t'), ...lines].join('\n') + '\n';
}

function candidateCells(record: IterationRecord, decision: CandidateDecisionRecord, first: boolean): Cells {
  const moved = decision.best?.moved === true;
  const about = record.candidate === decision.candidate;
  return {
    iteration: String(record.iteration),
    candidate: String(decision.candidate),
    parents: decision.parents.join('+'),
    member: decision.member ?? '',
    commit: moved && record.commit !== null ? record.commit.slice(0, 7) : '',
    score: fixed(decision.train),
    best: fixed(record.best),
    delta: signed(decision.delta),
    delta_lo: fixed(decision.paired?.train.lo ?? null),
    delta_hi: fixed(decision.paired?.train.hi ?? null),
    n_cases: decision.paired ? String(decision.paired.train.n) : '',
    checks: about ? fixed(record.signals.checks) : '',
    judge: about ? fixed(record.signals.judge) : '',
    expectations: about ? fixed(record.signals.expectations) : '',
    holdout: fixed(decision.holdout),
    status: moved ? 'keep' : decision.status,
    cost_usd: first ? record.costUsd.toFixed(4) : '',
    seconds: first ? String(Math.round(record.seconds)) : '',
    hypothesis: escapeCell(decision.hypothesis ?? ''),
  };
}

function iterationCells(record: IterationRecord): Omit<Cells, 'candidate' | 'parents' | 'member'> {
  return {
    iteration: String(record.iteration),
    commit: record.commit === null ? '' : record.commit.slice(0, 7),
    score: fixed(record.train),
    best: fixed(record.best),
    delta: signed(record.delta),
    delta_lo: fixed(record.paired?.train.lo ?? null),
    delta_hi: fixed(record.paired?.train.hi ?? null),
    n_cases: record.paired ? String(record.paired.train.n) : '',
    checks: fixed(record.signals.checks),
    judge: fixed(record.signals.judge),
    expectations: fixed(record.signals.expectations),
    holdout: fixed(record.holdout),
    status: record.status,
    cost_usd: record.costUsd.toFixed(4),
    seconds: String(Math.round(record.seconds)),
    hypothesis: escapeCell(record.hypothesis ?? ''),
  };
}

function fixed(value: number | null): string {
  return value === null ? '' : value.toFixed(4);
}

function signed(value: number | null): string {
  if (value === null) return '';
  const text = value.toFixed(4);
  // A tiny negative rounds to "-0.0000"; show it as no change.
  return text.startsWith('-') && Number(text) !== 0 ? text : `+${text.replace('-', '')}`;
}

export function escapeCell(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (ch) => {
    if (ch === '\t') return '\\t';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    return '\\\\';
  });
}
