/**
 * `compare <runA> <runB>` as terminal text: the two runs' headlines in two columns, every case's
 * score under each run's best with the difference, the paired interval over the cases both
 * scored, and the diff from A's best prompt to B's.
 */
import type { CaseComparison, RunComparison, SideSummary } from '../report/compare-runs.js';
import { cutVisible } from './fit-text.js';
import { formatUnifiedDiff } from './format-diff.js';
import { formatDuration, score, signed } from './format-figures.js';
import { formatUsd } from './format-runs.js';
import type { Colors } from './terminal.js';

export function formatCompare(cmp: RunComparison, c: Colors, width: number): string {
  const lines: string[] = [];
  const fields: [string, (s: SideSummary) => string][] = [
    ['run', (s) => s.id],
    ['experiment', (s) => s.experiment ?? '-'],
    ['status', (s) => `${s.status}${s.stopReason ? ` (${s.stopReason.replaceAll('_', ' ')})` : ''}`],
    ['iterations', (s) => `${s.iterations}, ${s.kept} kept`],
    ['baseline', (s) => splits(s.baseline)],
    ['best', (s) => (s.best ? `${splits(s.best)} (it. ${s.best.iteration})` : '-')],
    [
      'cost',
      (s) => `${formatUsd(s.costUsd)} · ${s.calls} calls${s.simulated.length > 0 ? ' · simulated' : ''}`,
    ],
    ['active time', (s) => formatDuration(s.activeSeconds)],
  ];
  // A's column is as wide as its longest value, but never more than half of what the names leave.
  const half = Math.max(24, Math.floor((width - 14) / 2));
  const column = Math.min(half, Math.max(24, ...fields.map(([, value]) => value(cmp.a).length)));
  lines.push(c.bold(`${''.padEnd(12)}${'A'.padEnd(column + 2)}B`));
  for (const [name, value] of fields)
    lines.push(
      cutVisible(
        `${c.dim(name.padEnd(12))}${cutVisible(value(cmp.a), column).padEnd(column + 2)}${value(cmp.b)}`,
        width,
      ),
    );

  for (const caveat of cmp.caveats) lines.push(c.yellow(`note: ${caveat}`));

  if (cmp.cases.length > 0) {
    lines.push('', c.bold(`Cases (each run's best: ${sourceOf(cmp.a)} in A, ${sourceOf(cmp.b)} in B)`));
    lines.push(...caseTable(cmp.cases, c, width));
  }
  if (cmp.paired) {
    const p = cmp.paired;
    const bounds = p.lo === null || p.hi === null ? '' : ` [${signed(p.lo)}, ${signed(p.hi)}]`;
    const verdict =
      p.lo !== null && p.lo > 0
        ? c.green('B is better')
        : p.hi !== null && p.hi < 0
          ? c.red('A is better')
          : 'no difference shown';
    lines.push(
      `B − A ${signed(p.mean)}${bounds} over ${p.n} case${p.n === 1 ? '' : 's'} (paired, ${Math.round(p.confidence * 100)}%): ${verdict}; B wins ${p.wins}, loses ${p.losses}, ties ${p.ties}`,
    );
  }
  if (cmp.onlyInA.length > 0) lines.push(c.dim(`only in A: ${cmp.onlyInA.join(', ')}`));
  if (cmp.onlyInB.length > 0) lines.push(c.dim(`only in B: ${cmp.onlyInB.join(', ')}`));

  if (cmp.prompts) {
    lines.push('', c.bold('Best prompts, A → B'));
    lines.push(
      formatUnifiedDiff(
        { label: `A ${cmp.a.id} best`, text: '' },
        { label: `B ${cmp.b.id} best`, text: '' },
        cmp.prompts.hunks,
        c,
      ),
    );
  }
  return lines.join('\n');
}

function splits(s: { train: number | null; holdout: number | null; test?: number | null } | null): string {
  if (!s) return '-';
  const parts = [`train ${score(s.train)}`];
  if (s.holdout !== null) parts.push(`holdout ${score(s.holdout)}`);
  if (s.test !== undefined && s.test !== null) parts.push(`test ${score(s.test)}`);
  return parts.join(' · ');
}

function sourceOf(s: SideSummary): string {
  if (!s.evaluation) return 'none';
  return s.evaluation.source === 'final'
    ? 'the final check'
    : `as decided at iteration ${s.evaluation.iteration}`;
}

function caseTable(cases: readonly CaseComparison[], c: Colors, width: number): string[] {
  const header = ['CASE', 'SPLIT', 'A', 'B', 'B − A'];
  const rows = cases.map((x) => [x.caseId, x.split, score(x.a), score(x.b), signed(x.d)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cutVisible(
      cells
        .map((cell, i) => (i < 2 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
        .join('  '),
      width,
    );
  return [
    c.dim(line(header)),
    ...rows.map((row, i) => {
      const d = (cases[i] as CaseComparison).d;
      const text = line(row);
      return d === null || Math.abs(d) < 0.0005 ? text : d > 0 ? c.green(text) : c.red(text);
    }),
  ];
}
