/**
 * The iteration table, and opening or closing a row's detail (the hash keeps the open
 * iteration across reloads of the served page).
 */
import type { Signals } from '../../run/run-state.js';
import { renderDetail } from './detail.js';
import { add, deltaNode, el, pill, section } from './dom.js';
import { alpha, bounds, duration, isNum, score, screenMean, side, tally, usd } from './format.js';
import { bestIteration, byIteration, data } from './page-data.js';

function hasSignal(key: keyof Signals): boolean {
  return data.iterations.some((it) => isNum(it.signals[key]));
}

const NUMERIC_COLUMNS = new Set([
  '#',
  'Train',
  'Holdout',
  'Δ',
  'Interval',
  'Cases',
  'checks',
  'judge',
  'Expect.',
  'Alpha',
  'Cost',
  'Time',
]);

export function renderTable(): HTMLElement {
  const box = section('Iterations', 'iterations');
  box.appendChild(
    el(
      'p',
      'note',
      'Click a row for its hypothesis, prompt diff, outputs, checks, judge scores and grader verdicts.',
    ),
  );
  const signals = (['checks', 'judge', 'expectations'] as const).filter(hasSignal);
  // Paired decisions (docs/design/paired-acceptance.md): the interval of the train mean difference
  // and the per-case tally.
  const paired = data.iterations.some((it) => it.paired || it.screen);
  // A judge panel (docs/design/judge-reliability.md): how far its members agreed on each
  // evaluation.
  const panel = data.iterations.some((it) => it.panel || isNum(it.judgeAlpha));
  // A pareto run (docs/design/pareto-search.md): the member the decided candidate came from and the
  // one it became.
  const pareto = data.pool !== null;
  const head = ['', '#', 'Status'].concat(
    pareto ? ['Lineage'] : [],
    ['Train', 'Holdout', 'Δ'],
    paired ? ['Interval', 'Cases'] : [],
    signals.map((s) => (s === 'expectations' ? 'Expect.' : s)),
    panel ? ['Alpha'] : [],
    ['Cost', 'Time', 'Commit', 'Hypothesis'],
  );
  const table = el('table', 'iter');
  table.appendChild(
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        head.map((h) => el('th', NUMERIC_COLUMNS.has(h) ? 'r' : null, h)),
      ),
    ),
  );
  const body = el('tbody');
  for (const it of data.iterations) {
    const row = el('tr', 'row' + (it.iteration === bestIteration ? ' incumbent' : ''));
    row.id = 'iteration-' + it.iteration;
    row.setAttribute('data-iteration', String(it.iteration));
    row.tabIndex = 0;
    const cells = [
      el('td', 'twisty', '▸'),
      el('td', 'r it', (it.iteration === bestIteration ? '★ ' : '') + it.iteration),
      el('td', null, pill(it.status)),
    ];
    if (pareto) cells.push(el('td', 'mono lineage', describeLineage(it)));
    cells.push(
      el('td', 'r', score(it.train)),
      el('td', 'r', score(it.holdout)),
      el('td', 'r', deltaNode(it.delta)),
    );
    if (paired) cells.push(intervalCell(it), el('td', 'r', it.paired ? tally(it.paired) : ''));
    for (const s of signals) cells.push(el('td', 'r', score(it.signals[s])));
    if (panel) cells.push(el('td', 'r', alpha(it.judgeAlpha)));
    const hypothesis =
      it.hypothesis ||
      (it.errorKind
        ? it.errorKind + (it.message ? ': ' + it.message : '')
        : it.message || (it.status === 'baseline' ? 'the starting prompt' : ''));
    const hypothesisCell = el('td', 'hyp', hypothesis);
    hypothesisCell.title = hypothesis;
    cells.push(
      el('td', 'r', usd(it.costUsd)),
      el('td', 'r', duration(it.seconds)),
      el('td', 'mono', it.commit ? it.commit.slice(0, 7) : ''),
      hypothesisCell,
    );
    add(row, cells);
    row.addEventListener('click', () => toggleIteration(it.iteration));
    row.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        toggleIteration(it.iteration);
      }
    });
    body.appendChild(row);
  }
  table.appendChild(body);
  box.appendChild(el('div', 'tablewrap', table));
  return box;
}

/** `p1 → p4`, `p1 + p3 → p4` for a merge, `p0` for the baseline, `p2 →` when not pooled. */
function describeLineage(it: (typeof data.iterations)[number]): string {
  const l = it.lineage;
  if (!l) return '';
  if (l.from.length === 0) return l.member ?? '';
  return l.from.join(' + ') + ' → ' + (l.member ?? '');
}

function intervalCell(it: (typeof data.iterations)[number]): HTMLTableCellElement {
  if (it.status === 'screened_out' && it.screen) return el('td', 'r muted', screenMean(it.screen));
  if (!it.paired) return el('td', 'r', '');
  const direction = side(it.paired.train);
  return el('td', 'r num' + (direction ? ' ' + direction : ''), bounds(it.paired.train));
}

function toggleIteration(n: number): void {
  const row = document.getElementById('iteration-' + n);
  if (row?.classList.contains('open')) closeIteration(n);
  else openIteration(n, false);
}

function closeIteration(n: number): void {
  const row = document.getElementById('iteration-' + n);
  const detail = document.getElementById('detail-' + n);
  if (detail) detail.parentNode?.removeChild(detail);
  if (row) {
    row.classList.remove('open');
    setTwisty(row, '▸');
  }
}

export function openIteration(n: number, scroll: boolean): void {
  const row = document.getElementById('iteration-' + n);
  const it = byIteration.get(n);
  if (!row || !it) return;
  if (!row.classList.contains('open')) {
    const detail = el('tr', 'detail');
    detail.id = 'detail-' + n;
    const cell = el('td', null, renderDetail(it));
    cell.colSpan = row.children.length;
    detail.appendChild(cell);
    row.parentNode?.insertBefore(detail, row.nextSibling);
    row.classList.add('open');
    setTwisty(row, '▾');
  }
  try {
    history.replaceState(null, '', '#iteration-' + n);
  } catch {
    // A page opened from file:// may refuse to change its own address; the row still opens.
  }
  if (scroll) row.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

function setTwisty(row: HTMLElement, mark: string): void {
  if (row.firstChild) row.firstChild.textContent = mark;
}
