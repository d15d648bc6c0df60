/**
 * A pareto run's pool (docs/design/pareto-search.md) as `show` prints it: one line for the whole
 * (members, front, best, the tie tolerance), then a row per member — the member(s) it came from,
 * where it was made, its scores, the train cases it leads, the proposals drawn from it — fitted to
 * the terminal width like the iteration table; and the merges in a few words (show, watch).
 */
import { cutText, toOneLine } from '../loop/text.js';
import { describeParents, type PoolReview } from '../report/pool-view.js';
import { wrapWords } from './fit-text.js';
import { score } from './format-figures.js';
import type { Colors } from './terminal.js';

const MIN_HYPOTHESIS = 24;
const GAP = 2;

type PoolColumn = 'member' | 'from' | 'made' | 'train' | 'holdout' | 'leads' | 'drawn' | 'hypothesis';
const POOL_HEADERS: Record<PoolColumn, string> = {
  member: 'MEMBER',
  from: 'FROM',
  made: 'MADE AT',
  train: 'TRAIN',
  holdout: 'HOLDOUT',
  leads: 'LEADS',
  drawn: 'DRAWN',
  hypothesis: 'HYPOTHESIS',
};
const POOL_LEFT: ReadonlySet<PoolColumn> = new Set(['member', 'from', 'made', 'hypothesis']);
/** Dropped in this order when the pool table is too wide even with a short hypothesis. */
const POOL_DROP: PoolColumn[] = ['drawn', 'holdout', 'made'];

/**
 * The pool (docs/design/pareto-search.md): one line for the whole (members, front, best, the tie
 * tolerance), then one row per member — ★ the run's best, ◆ on the front — with the train cases it
 * leads and the proposals drawn from it.
 */
export function formatPool(
  pool: PoolReview,
  { width, colors: c }: { width: number; colors: Colors },
): string {
  const bestText = pool.best === null ? '' : `, best ${pool.best}`;
  const title = wrapWords(
    `Pool: ${pool.members.length} member${pool.members.length === 1 ? '' : 's'}, ${pool.front.length} on the front${bestText}; ${pool.cases.length} train case${pool.cases.length === 1 ? '' : 's'}, ties within min_effect ${pool.minEffect}`,
    width,
  );
  const rows = pool.members.map((m): Record<PoolColumn, string> => {
    const marks = `${m.best ? '★' : ''}${m.front ? '◆' : ''}`;
    return {
      member: marks === '' ? m.id : `${m.id} ${marks}`,
      from: describeParents(m.parents),
      made:
        m.kind === 'seed'
          ? 'baseline'
          : `${m.iteration}${m.candidate > 0 ? ` c${m.candidate}` : ''}${m.kind === 'merge' ? ' merge' : ''}`,
      train: score(m.train),
      holdout: score(m.holdout),
      leads: `${m.leads.length}/${pool.cases.length}`,
      drawn: String(m.proposals),
      hypothesis: toOneLine(m.hypothesis ?? (m.kind === 'seed' ? 'the starting prompt' : '')),
    };
  });
  let columns = Object.keys(POOL_HEADERS) as PoolColumn[];
  const widths = {} as Record<PoolColumn, number>;
  for (const column of columns)
    widths[column] = Math.max(POOL_HEADERS[column].length, ...rows.map((row) => row[column].length));
  const fixed = () =>
    columns.filter((col) => col !== 'hypothesis').reduce((sum, col) => sum + widths[col] + GAP, 0);
  for (const drop of POOL_DROP) {
    if (fixed() + MIN_HYPOTHESIS <= width) break;
    columns = columns.filter((column) => column !== drop);
  }
  const room = width - fixed();
  if (room < 8) columns = columns.filter((column) => column !== 'hypothesis');
  const line = (cells: Record<PoolColumn, string>, paint: (column: PoolColumn, text: string) => string) =>
    columns
      .map((column) => {
        if (column === 'hypothesis') return paint(column, cutText(cells.hypothesis, room));
        const text = POOL_LEFT.has(column)
          ? cells[column].padEnd(widths[column])
          : cells[column].padStart(widths[column]);
        return paint(column, text);
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  const body = rows.map((cells, index) => {
    const m = pool.members[index];
    const mark = m?.best ? c.bold : m?.front ? c.cyan : (text: string) => text;
    return line(cells, (column, text) => (column === 'member' ? mark(text) : text));
  });
  const legend = wrapWords(
    `★ the run's best; ◆ on the front: best, within min_effect, on at least one train case. LEADS: the train cases it leads.${columns.includes('drawn') ? ' DRAWN: proposals drawn from it as their parent.' : ''}`,
    width,
  );
  return [c.bold(title), line(POOL_HEADERS, (_column, text) => c.bold(text)), ...body, c.dim(legend)].join(
    '\n',
  );
}
