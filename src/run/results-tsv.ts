/**
 * `results.tsv`: derived from the run state (never a second source of truth), in one layout for
 * every search strategy (docs/design/run-records.md). Tabs, newlines and backslashes inside
 * hypotheses are escaped so every row is one line, and other control characters shown as escapes.
 *
 * One row per decided candidate: an iteration whose candidates were decided one by one (the
 * pareto search's `candidate_decided`, docs/design/pareto-search.md) has a row for each, with its
 * score, its difference and interval against its parent, and its status (`keep` for the member
 * that moved the best, else `pooled` or what turned it away); its signal columns are filled on
 * the row of the candidate the iteration's status is about, its cost and seconds on its first
 * row. Every other iteration (a greedy one, the baseline, one interrupted) has one row, about the
 * candidate it decided. `parents` and `member` stay empty where the run has no pool.
 *
 * Nothing reads the file back: every write rebuilds it whole from the journal, so a run an older
 * build wrote (in its older layout) is rewritten in this one at its next write, at the latest
 * when a resume stops.
 */
import { visibleText } from '../visible-text.js';
import type { CandidateDecisionRecord, IterationRecord, RunState } from './run-state.js';

export const RESULTS_COLUMNS = [
  'iteration',
  'candidate',
  'parents',
  'member',
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

type Cells = Record<(typeof RESULTS_COLUMNS)[number], string>;

export function formatResultsTsv(state: RunState): string {
  const byIteration = new Map<number, CandidateDecisionRecord[]>();
  for (const decision of state.pool?.decisions ?? []) {
    const list = byIteration.get(decision.iteration) ?? [];
    list.push(decision);
    byIteration.set(decision.iteration, list);
  }
  const memberOf = new Map((state.pool?.members ?? []).map((m) => [`${m.iteration}:${m.candidate}`, m.id]));
  const rows = state.iterations.flatMap((record) => {
    const decisions = byIteration.get(record.iteration) ?? [];
    if (decisions.length === 0) {
      const member = memberOf.get(`${record.iteration}:${record.candidate ?? 0}`) ?? '';
      return [iterationCells(record, member)];
    }
    return decisions.map((decision, index) => candidateCells(record, decision, index === 0));
  });
  const lines = rows.map((cells) => RESULTS_COLUMNS.map((column) => cells[column]).join('\t'));
  return [RESULTS_COLUMNS.join('\t'), ...lines].join('\n') + '\n';
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

function iterationCells(record: IterationRecord, member: string): Cells {
  return {
    iteration: String(record.iteration),
    candidate: record.candidate === null ? '' : String(record.candidate),
    parents: '',
    member,
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
  const escaped = text.replace(/[\\\t\n\r]/g, (ch) => {
    if (ch === '\t') return '\\t';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    return '\\\\';
  });
  // A hypothesis comes from a model: `cat results.tsv` must not obey an escape sequence in it.
  return visibleText(escaped);
}
