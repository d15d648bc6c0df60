/**
 * `autoresearch show` as text: a header (what ran, how it ended, baseline → best, noise
 * margin, the judge's drift anchors, spend and the ledger per role, branch, the simulated label, the warnings) and one row per iteration, fitted to the
 * terminal width — the hypothesis takes what is left, and the least useful columns go first
 * when even that is not enough. Paired decisions (docs/design/paired-acceptance.md) add their
 * interval and per-case tally, explained under the table. A pareto run
 * (docs/design/pareto-search.md) adds its pool — each member with its parents, scores and the train
 * cases it leads, the front and the best marked — and each iteration's candidates with the member
 * they came from and what became of them. `--json` gets a stable object instead.
 */
import { cutText, toOneLine } from '../loop/text.js';
import type { IterationStatus, PairedDecisionRecord } from '../run/events.js';
import type { CandidateDecisionRecord, IterationRecord } from '../run/run-state.js';
import { headlineScores, type OverviewFrom, type RunOverview, type SplitPair } from '../report/overview.js';
import { describeFrom } from '../run/run-from.js';
import { decisionsOf, describeParents, type PoolReview } from '../report/pool-view.js';
import { describeMerges } from '../run/pool-summary.js';
import { formatPool } from './format-pool.js';
import { formatField, wrapWords } from './fit-text.js';
import { describePhase, describeRow, formatInterval, formatTally, intervalSide } from './format-decision.js';
import { formatDuration, score, signed } from './format-figures.js';
import { describeJudgeAnchors } from './format-anchors.js';
import { paintStatus } from './progress-line.js';
import { formatUsd } from './format-runs.js';
import { describeSpendAlert, ledgerLines } from './format-ledger.js';
import type { Colors } from './terminal.js';
import type { AgentCases } from '../agent/read-agent-cases.js';

export interface ShowOptions {
  width: number;
  colors: Colors;
}

type Column =
  | 'iter'
  | 'cand'
  | 'from'
  | 'status'
  | 'member'
  | 'train'
  | 'holdout'
  | 'delta'
  | 'interval'
  | 'cases'
  | 'checks'
  | 'judge'
  | 'alpha'
  | 'expect'
  | 'cost'
  | 'secs'
  | 'commit'
  | 'hypothesis';

const HEADERS: Record<Column, string> = {
  iter: 'ITER',
  cand: 'CAND',
  from: 'FROM',
  status: 'STATUS',
  member: 'MEMBER',
  train: 'TRAIN',
  holdout: 'HOLDOUT',
  delta: 'DELTA',
  interval: 'INTERVAL',
  cases: 'CASES',
  checks: 'CHECKS',
  judge: 'JUDGE',
  alpha: 'ALPHA',
  expect: 'EXPECT',
  cost: 'COST',
  secs: 'SECS',
  commit: 'COMMIT',
  hypothesis: 'HYPOTHESIS',
};
const LEFT_ALIGNED: ReadonlySet<Column> = new Set([
  'cand',
  'from',
  'status',
  'member',
  'commit',
  'hypothesis',
]);
/** Dropped in this order when the table is too wide even with a short hypothesis. */
const DROP_ORDER: Column[] = [
  'commit',
  'secs',
  'expect',
  'alpha',
  'judge',
  'checks',
  'cost',
  'holdout',
  'cases',
  'cand',
  'interval',
  'member',
  'from',
];
/** Shown only when some row has a value (the pool's columns: only in a pareto run). */
const OPTIONAL: ReadonlySet<Column> = new Set([
  'cand',
  'from',
  'member',
  'interval',
  'cases',
  'checks',
  'judge',
  'alpha',
  'expect',
]);
const MIN_HYPOTHESIS = 24;
const GAP = 2;

export const SHOW_FORMAT = 'autoresearch.show/v1';

/**
 * `calibration`: a `calibrate` run's calibration.json (docs/design/judge-reliability.md), added
 * under its own key. `pool`: a pareto run's pool (docs/design/pareto-search.md) under `pool`, and
 * each iteration's candidates under its row.
 */
export function formatShowJson(
  overview: RunOverview,
  iterations: readonly IterationRecord[],
  extra: { calibration?: unknown; pool?: PoolReview | null; agentCases?: AgentCases } = {},
): string {
  const pool = extra.pool ?? null;
  const rows = iterations.map((r) => ({
    iteration: r.iteration,
    status: r.status,
    strategy: r.strategy,
    candidate: r.candidate,
    train: r.train,
    holdout: r.holdout,
    delta: r.delta,
    paired: r.paired,
    screen: r.screen,
    incumbentBefore: r.incumbentBefore,
    best: r.best,
    signals: r.signals,
    // A judge panel's agreement (docs/design/judge-reliability.md): only in runs that have a panel.
    ...(r.judgeAlpha === undefined ? {} : { judgeAlpha: r.judgeAlpha }),
    gateFailure: r.gateFailure,
    hypothesis: r.hypothesis,
    commit: r.commit,
    costUsd: r.costUsd,
    seconds: r.seconds,
    errorKind: r.errorKind,
    message: r.message,
    attempts: r.attempts,
    // A pareto run (docs/design/pareto-search.md): every candidate's parents and outcome.
    ...(pool === null ? {} : { candidates: decisionsOf(pool, r.iteration) }),
  }));
  return JSON.stringify(
    {
      format: SHOW_FORMAT,
      run: overview,
      iterations: rows,
      ...(extra.calibration === undefined ? {} : { calibration: extra.calibration }),
      // An agent run (docs/design/agent-runs.md): each case's end, turns, tools and files.
      ...(extra.agentCases === undefined ? {} : { agentCases: extra.agentCases }),
      ...(pool === null
        ? {}
        : {
            pool: {
              minEffect: pool.minEffect,
              cases: pool.cases,
              members: pool.members,
              front: pool.front,
              best: pool.best,
              merges: pool.merges,
            },
          }),
    },
    null,
    2,
  );
}

/**
 * `pool`: a pareto run's pool (docs/design/pareto-search.md), shown between the header and the
 * iteration table.
 */
export function formatShow(
  overview: RunOverview,
  iterations: readonly IterationRecord[],
  options: ShowOptions,
  pool: PoolReview | null = null,
): string {
  const header = formatShowHeader(overview, options.colors, options.width);
  const poolTable = pool === null || pool.members.length === 0 ? '' : `${formatPool(pool, options)}\n\n`;
  const table =
    iterations.length === 0
      ? options.colors.dim('No iteration has finished yet.')
      : formatIterationTable(iterations, options, pool);
  const current = overview.current ? `\n${options.colors.cyan(describeCurrent(overview))}` : '';
  return `${header}\n\n${poolTable}${table}${current}`;
}

/** One line per field; a value too long for `width` wraps between words under its column. */
export function formatShowHeader(o: RunOverview, c: Colors, width = Number.POSITIVE_INFINITY): string {
  const lines: string[] = [];
  const field = (name: string, value: string) =>
    lines.push(formatField(c.dim(name.padEnd(12)), value, width));
  field('Run', `${c.bold(o.id)}${o.experiment ? ` (${o.kind ?? 'run'} of ${o.experiment})` : ''}`);
  if (o.from !== undefined) field('From', describeOverviewFrom(o.from, c));
  field('Status', paintRunStatus(o, c));
  const head = headlineScores(o);
  const source = head.fresh ? 'fresh final evaluation' : 'as decided during the run';
  // The sealed test split leads: no decision saw it, so it is the least flattered figure.
  if (head.baseline?.test !== undefined || head.best?.test !== undefined) {
    const from = head.baseline?.test ?? null;
    const to = head.best?.test ?? null;
    const delta = from !== null && to !== null ? ` (${paintDelta(to - from, c)})` : '';
    const where = head.best ? ` at iteration ${head.best.iteration}` : '';
    field(
      'Test',
      `${score(from)} → ${score(to)}${delta}${where}, ${c.dim('sealed: scored only by the final evaluation')}`,
    );
  }
  for (const split of ['train', 'holdout'] as const) {
    const from = head.baseline?.[split] ?? null;
    const to = head.best?.[split] ?? null;
    const name = split === 'train' ? 'Train' : 'Holdout';
    if (from === null && to === null) {
      field(name, c.dim(split === 'holdout' ? 'no holdout cases' : 'no score yet'));
      continue;
    }
    const delta = from !== null && to !== null ? ` (${paintDelta(to - from, c)})` : '';
    const where = head.best ? ` at iteration ${head.best.iteration}` : '';
    field(name, `${score(from)} → ${score(to)}${delta}${where}, ${c.dim(source)}`);
  }
  if (head.fresh && o.baseline && o.best) {
    const pair = (split: keyof SplitPair) =>
      `${score(o.baseline?.[split] ?? null)} → ${score(o.best?.[split] ?? null)}`;
    field('During run', `train ${pair('train')}, holdout ${pair('holdout')}`);
  }
  if (o.noiseMargin) {
    const holdout = o.noiseMargin.holdout === null ? '' : `, ±${o.noiseMargin.holdout.toFixed(3)} holdout`;
    field('Noise', `±${o.noiseMargin.train.toFixed(3)} train${holdout}`);
  }
  const judge = describeJudgeAnchors(o.judgeAnchors);
  if (judge !== null) {
    const drifted = o.judgeAnchors.checks.some((check) => check.beyondNoise);
    field('Judge', drifted ? c.yellow(judge) : judge);
  }
  field('Cost', `${formatUsd(o.costUsd)} over ${o.calls} calls, ${formatDuration(o.activeSeconds)} active`);
  for (const [i, line] of ledgerLines(o.costByRole).entries()) field(i === 0 ? 'Ledger' : '', line);
  for (const alert of o.spendAlerts) field('Spend alert', c.yellow(describeSpendAlert(alert)));
  field('Branch', o.branch ?? c.dim('none (commits are off: not a git repository)'));
  const counts = (Object.entries(o.counts) as [IterationStatus, number][])
    .filter(([status, n]) => n > 0 && status !== 'baseline')
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  const saved = o.callsSaved > 0 ? `; screening saved ${o.callsSaved} calls` : '';
  field('Iterations', `${o.iterations} finished${counts === '' ? '' : `: ${counts}`}${saved}`);
  if (o.merges) field('Merges', describeMerges(o.merges));
  if (o.simulated.length > 0) {
    field('Simulated', c.yellow(`${o.simulated.join(', ')}: these figures say nothing about real models`));
  }
  for (const w of o.warnings) {
    field('Warning', c.yellow(`${w.iteration === null ? '' : `iteration ${w.iteration}: `}${w.message}`));
  }
  return lines.join('\n');
}

function paintRunStatus(o: RunOverview, c: Colors): string {
  const stop = o.stopReason
    ? `: ${o.stopReason.replaceAll('_', ' ')}${o.stopMessage ? ` (${o.stopMessage})` : ''}`
    : '';
  switch (o.status) {
    case 'running':
      return c.green(`running${stop}`);
    case 'crashed':
      return `${c.red('crashed')}${c.dim(': no stop was recorded and no process holds the run; resume it to continue')}`;
    case 'stopped':
      return c.yellow(`stopped${stop}`);
    case 'finished':
      return `finished${stop}`;
  }
}

function describeCurrent(o: RunOverview): string {
  const current = o.current;
  if (!current) return '';
  const phase =
    current.phase || current.retesting ? `, ${describePhase(current.phase, current.retesting)}` : '';
  const progress = current.progress ? ` ${current.progress.done}/${current.progress.total}` : '';
  const candidate =
    current.candidate !== null && current.candidate > 0 ? ` (candidate ${current.candidate})` : '';
  return `iteration ${current.iteration} in progress${phase}${progress}${candidate}`;
}

/** One line of the iteration table: an iteration, or (pareto) another of its candidates. */
interface TableRow {
  cells: Record<Column, string>;
  status: IterationStatus;
  delta: number | null;
  paired: PairedDecisionRecord | null;
}

function formatIterationTable(
  iterations: readonly IterationRecord[],
  { width, colors: c }: ShowOptions,
  pool: PoolReview | null,
): string {
  const rows = iterations.flatMap((record) => tableRows(record, pool));
  let columns = (Object.keys(HEADERS) as Column[]).filter(
    (column) =>
      !OPTIONAL.has(column) || rows.some((row) => row.cells[column] !== '-' && row.cells[column] !== ''),
  );
  const widths = {} as Record<Column, number>;
  for (const column of columns)
    widths[column] = Math.max(HEADERS[column].length, ...rows.map((row) => row.cells[column].length));
  const fixed = () =>
    columns.filter((col) => col !== 'hypothesis').reduce((sum, col) => sum + widths[col] + GAP, 0);
  for (const drop of DROP_ORDER) {
    if (fixed() + MIN_HYPOTHESIS <= width) break;
    columns = columns.filter((column) => column !== drop);
  }
  const room = width - fixed();
  // Below a few characters a hypothesis says nothing: leave the column out.
  if (room < 8) columns = columns.filter((column) => column !== 'hypothesis');
  const line = (cells: Record<Column, string>, paint: (column: Column, text: string) => string) =>
    columns
      .map((column) => {
        if (column === 'hypothesis') return paint(column, cutText(cells.hypothesis, room));
        const text = LEFT_ALIGNED.has(column)
          ? cells[column].padEnd(widths[column])
          : cells[column].padStart(widths[column]);
        return paint(column, text);
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  const header = line(HEADERS, (_column, text) => c.bold(text));
  const body = rows.map((row) =>
    line(row.cells, (column, text) => {
      if (column === 'status') return paintStatus(row.status, c)(text);
      if (column === 'delta' && row.delta !== null) return deltaColor(row.delta, c)(text);
      if (column === 'interval') return sideColor(intervalSide(row.paired), c)(text);
      return text;
    }),
  );
  const legend = explainColumns(iterations, rows, columns, width, pool !== null);
  return [header, ...body, ...(legend ? [c.dim(legend)] : [])].join('\n');
}

/**
 * An iteration's row; in a pareto run it names the member its candidate came from and the one
 * it became, and each of its other candidates follows on a row of its own.
 */
function tableRows(record: IterationRecord, pool: PoolReview | null): TableRow[] {
  const cells = toCells(record);
  const row: TableRow = { cells, status: record.status, delta: record.delta, paired: record.paired };
  if (pool === null) return [row];
  const decisions = decisionsOf(pool, record.iteration);
  const several = pool.decisions.some((d) => d.candidate > 0);
  const shown = decisions.find((d) => d.candidate === record.candidate);
  const member = pool.members.find(
    (m) => m.iteration === record.iteration && m.candidate === record.candidate,
  );
  cells.cand = several && record.candidate !== null ? `c${record.candidate}` : '';
  cells.from = shown ? describeParents(shown.parents) : member ? describeParents(member.parents) : '';
  cells.member = shown?.member ?? member?.id ?? '';
  if (shown?.kind === 'merge') cells.hypothesis = `merge: ${cells.hypothesis}`;
  const others = decisions.filter((d) => d !== shown).map((d) => candidateRow(d, several));
  return [row, ...others];
}

/**
 * Another candidate of a pareto iteration: its outcome against its parent
 * (docs/design/pareto-search.md).
 */
function candidateRow(d: CandidateDecisionRecord, several: boolean): TableRow {
  const text =
    d.status === 'error'
      ? `${d.errorKind ?? 'error'}: ${d.message ?? d.hypothesis ?? ''}`
      : d.status === 'screened_out' && d.screen
        ? `${d.screen.callsSaved} calls saved: ${d.hypothesis ?? ''}`
        : (d.hypothesis ?? '');
  const cells: Record<Column, string> = {
    iter: '',
    cand: several ? `c${d.candidate}` : '',
    from: describeParents(d.parents),
    status: d.status,
    member: d.member ?? '',
    train: score(d.train),
    holdout: score(d.holdout),
    delta: signed(d.delta),
    interval: formatInterval(d),
    cases: formatTally(d.paired),
    checks: '',
    judge: '',
    alpha: '',
    expect: '',
    cost: '',
    secs: '',
    commit: '',
    hypothesis: toOneLine(`${d.kind === 'merge' ? 'merge: ' : ''}${text}`),
  };
  return { cells, status: d.status, delta: d.delta, paired: d.paired };
}

/** What the paired columns, the pool's and a panel's ALPHA mean, at the confidence the decisions used. */
function explainColumns(
  iterations: readonly IterationRecord[],
  rows: readonly TableRow[],
  columns: Column[],
  width: number,
  pareto: boolean,
): string | null {
  const parts: string[] = [];
  if (columns.includes('interval')) {
    const levels = [
      ...new Set(
        [...iterations.map((r) => r.paired), ...rows.map((r) => r.paired)].flatMap((p) =>
          p ? [p.confidence] : [],
        ),
      ),
    ];
    const percent = levels.map((level) => `${Number((level * 100).toFixed(1))}%`).join('/');
    const against = pareto ? 'its parent' : 'the incumbent';
    if (levels.length > 0)
      parts.push(`INTERVAL: the train mean difference against ${against}, one-sided ${percent} bounds.`);
  }
  if (columns.includes('interval') && rows.some((r) => r.status === 'screened_out'))
    parts.push('A screened-out row: the mean difference on its minibatch.');
  if (columns.includes('cases')) parts.push('CASES: train cases better ↑, worse ↓, the same =.');
  if (columns.includes('from')) parts.push('FROM: the pool member(s) a candidate was made from.');
  if (columns.includes('member')) parts.push('MEMBER: the member it became.');
  if (pareto && rows.some((r) => r.status === 'pooled'))
    parts.push(
      'pooled: it beat its parent and entered the pool, but the best did not move; keep: the best moved.',
    );
  if (columns.includes('alpha'))
    parts.push(
      "ALPHA: how far the judge panel's members agree (Krippendorff's alpha, ordinal: 1 perfect, 0 chance; n/a when no score varied).",
    );
  return parts.length === 0 ? null : wrapWords(parts.join(' '), width);
}

function toCells(r: IterationRecord): Record<Column, string> {
  return {
    iter: String(r.iteration),
    cand: '-',
    from: '-',
    status: r.status,
    member: '-',
    train: score(r.train),
    holdout: score(r.holdout),
    delta: signed(r.delta),
    interval: formatInterval(r),
    cases: formatTally(r.paired),
    checks: score(r.signals.checks),
    judge: score(r.signals.judge),
    alpha: r.judgeAlpha === undefined ? '-' : formatAlpha(r.judgeAlpha),
    expect: score(r.signals.expectations),
    cost: formatUsd(r.costUsd),
    secs: String(Math.round(r.seconds)),
    commit: r.commit ? r.commit.slice(0, 7) : '',
    hypothesis: toOneLine(describeRow(r)),
  };
}

/** Krippendorff's alpha to two decimals; `n/a` when no score varied. */
export function formatAlpha(alpha: number | null): string {
  return alpha === null ? 'n/a' : alpha.toFixed(2);
}

function paintDelta(delta: number, c: Colors): string {
  return deltaColor(delta, c)(signed(delta));
}

function deltaColor(delta: number, c: Colors): (text: string) => string {
  const rounded = Number(delta.toFixed(3));
  return rounded > 0 ? c.green : rounded < 0 ? c.red : (text: string) => text;
}

function sideColor(side: ReturnType<typeof intervalSide>, c: Colors): (text: string) => string {
  return side === 'above' ? c.green : side === 'below' ? c.red : (text: string) => text;
}

/** `run --from`: the source, its score there (not this run's baseline) and the commit it is at. */
function describeOverviewFrom(from: OverviewFrom, c: Colors): string {
  const there = from.train === null ? '' : `, train ${score(from.train)} there`;
  const commit = from.commit === null ? '' : `, commit ${from.commit.slice(0, 12)}`;
  const seeds =
    from.seeds === undefined || from.seeds.length === 0
      ? ''
      : `; seeds ${from.seeds.map((s) => s.member).join(', ')} evaluated beside it`;
  return `${describeFrom(from)}${there}${commit} ${c.dim(`(prompt ${from.promptSha256.slice(0, 12)}, evaluated afresh as the baseline)`)}${seeds}`;
}
