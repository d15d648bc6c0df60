/**
 * A pareto run's pool (docs/design/pareto-search.md): the lineage as a tree (p0 at the root, each
 * member under its parent, a merge joined to both; the best and the front marked; clicking a member
 * shows its hypothesis and scores), and a case × member heat map so a person sees which prompt wins
 * which train cases. Geometry comes precomputed (pool-geometry.ts); a greedy run has no pool
 * and gets neither.
 */
import type { ReviewedMember } from '../pool-view.js';
import type { CandidateOutcomeView, PoolView } from '../report-data.js';
import { add, el, pill, section, svg } from './dom.js';
import { isNum, score, signed } from './format.js';
import { openIteration } from './iterations.js';
import { data } from './page-data.js';

/** `★` the run's best, `◆` on the front. */
export function memberMarks(m: ReviewedMember): string {
  return (m.best ? '★' : '') + (m.front ? '◆' : '');
}

export function renderPool(): HTMLElement | null {
  const pool = data.pool;
  if (!pool || pool.members.length === 0) return null;
  const box = section('Pool', 'pool');
  box.appendChild(
    el(
      'p',
      'note',
      pool.members.length +
        ' members, ' +
        pool.front.length +
        ' on the front (best, within min_effect ' +
        pool.minEffect +
        ', on at least one of ' +
        pool.cases.length +
        ' train cases), best ' +
        (pool.best ?? '–') +
        '. Each member sits under the member it was made from; a merge is joined to both. Click a member for its hypothesis and scores.',
    ),
  );
  const detail = el('div', 'memberdetail');
  detail.id = 'member-detail';
  const tree = renderLineage(pool, detail);
  box.appendChild(el('div', 'lineagewrap', tree));
  add(box, [
    el('div', 'legend', [
      el('span', null, [el('i', 'sw nodebest'), '★ the run’s best']),
      el('span', null, [el('i', 'sw nodefront'), '◆ on the front']),
      el('span', null, [el('i', 'sw node'), 'other member']),
      el('span', null, [el('i', 'sw mergeedge'), 'second parent of a merge']),
    ]),
    detail,
  ]);
  const best = pool.members.find((m) => m.best);
  if (best) showMember(pool, best, detail, tree);
  box.appendChild(el('h3', null, 'Which member wins which train case'));
  box.appendChild(
    el(
      'p',
      'note',
      'Rows are train cases, columns pool members; a cell is the member’s score on the case. ● marks the case’s leaders (best within min_effect).',
    ),
  );
  box.appendChild(renderHeatMap(pool));
  return box;
}

function renderLineage(pool: PoolView, detail: HTMLElement): SVGSVGElement {
  const g = pool.lineage;
  const tree = svg('svg', {
    viewBox: '0 0 ' + g.width + ' ' + g.height,
    width: g.width,
    height: g.height,
    class: 'lineage',
    role: 'img',
    'aria-label': 'Pool lineage',
  });
  for (const e of g.edges) {
    tree.appendChild(
      svg('path', {
        d: e.path,
        class: 'edge' + (e.merge ? ' merge' : ''),
        'data-from': e.from,
        'data-to': e.to,
      }),
    );
  }
  const byId = new Map(pool.members.map((m) => [m.id, m]));
  for (const n of g.nodes) {
    const m = byId.get(n.id);
    if (!m) continue;
    const node = svg(
      'g',
      {
        class:
          'member' +
          (m.best ? ' best' : '') +
          (m.front ? ' front' : '') +
          (m.kind === 'merge' ? ' merged' : ''),
        'data-member': m.id,
        transform: 'translate(' + n.x + ',' + n.y + ')',
        tabindex: 0,
      },
      [
        svg('circle', { r: g.radius }),
        svg('text', { x: 0, y: 4, 'text-anchor': 'middle', class: 'id' }, m.id),
        svg('text', { x: 0, y: -g.radius - 5, 'text-anchor': 'middle', class: 'marks' }, memberMarks(m)),
        svg('text', { x: 0, y: g.radius + 14, 'text-anchor': 'middle', class: 'score' }, score(m.train)),
        svg('title', {}, m.id + ' · train ' + score(m.train) + (m.hypothesis ? '\n' + m.hypothesis : '')),
      ],
    );
    node.addEventListener('click', () => showMember(pool, m, detail, tree));
    node.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        showMember(pool, m, detail, tree);
      }
    });
    tree.appendChild(node);
  }
  return tree;
}

/** The member's facts: how it was made, its scores, what it leads, and its outcome against its parent and the best. */
function showMember(pool: PoolView, m: ReviewedMember, detail: HTMLElement, tree: SVGSVGElement): void {
  for (const node of Array.from(tree.querySelectorAll('g.member')))
    node.classList.toggle('selected', node.getAttribute('data-member') === m.id);
  const outcome = pool.candidates.find((c) => c.member === m.id);
  const made =
    m.kind === 'seed'
      ? 'the baseline (iteration 0)'
      : (m.kind === 'merge' ? 'a merge of ' + m.parents.join(' and ') : 'a mutation of ' + m.parents[0]) +
        ' in iteration ' +
        m.iteration +
        (m.candidate > 0 ? ', candidate ' + m.candidate : '');
  const open = el('button', 'link', 'open iteration ' + m.iteration);
  open.type = 'button';
  open.addEventListener('click', () => openIteration(m.iteration, true));
  const facts = el('dl', 'kv');
  const kv = (key: string, value: (Node | string)[] | string | null) => {
    if (value === null || value === '') return;
    add(facts, [el('dt', null, key), el('dd', null, value)]);
  };
  kv('Hypothesis', m.hypothesis ?? (m.kind === 'seed' ? 'the starting prompt' : '—'));
  kv('Made as', [made + ' · ', open]);
  kv(
    'Scores',
    'train ' +
      score(m.train) +
      ' · holdout ' +
      score(m.holdout) +
      (m.eligible ? '' : ' · not eligible (a gate failed)'),
  );
  kv(
    'Leads',
    m.leads.length === 0
      ? 'no train case'
      : m.leads.length + ' of ' + pool.cases.length + ' train cases: ' + m.leads.join(', '),
  );
  kv('Drawn as a parent', m.proposals + (m.proposals === 1 ? ' proposal' : ' proposals'));
  kv('Against its parent', outcome ? describeOutcome(outcome) : null);
  kv(
    'Against the best',
    outcome?.best
      ? (outcome.best.moved ? 'became the best: ' : 'the best stayed ' + outcome.best.against + ': ') +
          outcome.best.reason
      : null,
  );
  detail.textContent = '';
  add(detail, [el('h3', null, m.id + (memberMarks(m) ? ' ' + memberMarks(m) : '')), facts]);
}

function describeOutcome(c: CandidateOutcomeView): string {
  const bounds =
    c.paired && isNum(c.paired.train.lo) && isNum(c.paired.train.hi)
      ? ' [' + signed(c.paired.train.lo) + ', ' + signed(c.paired.train.hi) + ']'
      : '';
  return (
    'train Δ ' +
    signed(c.delta) +
    bounds +
    (c.kind === 'merge' ? ' (against ' + c.parents[0] + '; kept against both)' : '')
  );
}

/** Cell colour: red (0) through amber to green (1), light enough for dark text. */
function heat(value: number): string {
  const v = Math.max(0, Math.min(1, value));
  return 'hsl(' + Math.round(v * 120) + ', 62%, 78%)';
}

function renderHeatMap(pool: PoolView): HTMLElement {
  const head = el('tr', null, [el('th', null, 'Train case')]);
  for (const m of pool.members) {
    const th = el(
      'th',
      'r member' + (m.best ? ' best' : '') + (m.front ? ' front' : ''),
      m.id + memberMarks(m),
    );
    th.setAttribute('data-member', m.id);
    head.appendChild(th);
  }
  head.appendChild(el('th', null, 'Led by'));
  const body = el('tbody');
  for (const caseId of pool.cases) {
    const row = el('tr', null, el('td', 'mono', caseId));
    row.setAttribute('data-case', caseId);
    const leaders: string[] = [];
    for (const m of pool.members) {
      const value = m.cases[caseId];
      const lead = m.leads.includes(caseId);
      if (lead) leaders.push(m.id);
      const cell = el(
        'td',
        'r cell' + (lead ? ' lead' : ''),
        isNum(value) ? (lead ? '● ' : '') + score(value) : '–',
      );
      cell.setAttribute('data-member', m.id);
      if (isNum(value)) cell.style.background = heat(value);
      cell.title = caseId + ' · ' + m.id + ': ' + score(value ?? null) + (lead ? ' (leads)' : '');
      row.appendChild(cell);
    }
    row.appendChild(el('td', 'leaders', leaders.join(', ')));
    body.appendChild(row);
  }
  return el('div', 'tablewrap', el('table', 'heat', [el('thead', null, head), body]));
}

/** A pareto iteration's candidates: each one's parent, outcome and the member it became. */
export function renderCandidates(iteration: number): HTMLElement | null {
  const rows = (data.pool?.candidates ?? []).filter((c) => c.iteration === iteration);
  if (rows.length === 0) return null;
  const body = el('tbody');
  for (const c of rows) {
    body.appendChild(
      el('tr', null, [
        el('td', 'r', String(c.candidate)),
        el('td', 'mono', c.parents.join(' + ') + (c.kind === 'merge' ? ' (merge)' : '')),
        el('td', null, pill(c.status)),
        el('td', 'mono', c.member ? c.member + (c.best?.moved ? ' ★' : '') : ''),
        el('td', 'r', score(c.train)),
        el('td', 'r', signed(c.delta)),
        el('td', null, c.hypothesis || c.message || '—'),
      ]),
    );
  }
  const table = el('table', 'candidates', [
    el(
      'thead',
      null,
      el('tr', null, [
        el('th', 'r', 'Candidate'),
        el('th', null, 'From'),
        el('th', null, 'Outcome'),
        el('th', null, 'Member'),
        el('th', 'r', 'Train'),
        el('th', 'r', 'Δ vs parent'),
        el('th', null, 'Hypothesis'),
      ]),
    ),
    body,
  ]);
  return el('div', null, [el('h3', null, 'Candidates (★ became the best)'), el('div', 'tablewrap', table)]);
}
