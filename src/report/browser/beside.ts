/**
 * `report <run> --beside <other>`: this run (A) and another (B) side by side, as `compare` sees
 * them (compare-runs.ts) — how each ended, what each reached and spent, every case under each
 * run's best with the difference, the paired interval over the cases both scored, and the diff
 * from A's best prompt to B's. Absent from a run's own report.html.
 */
import type { RunComparison, SideSummary } from '../compare-runs.js';
import { renderHunks } from './detail.js';
import { deltaNode, el, section } from './dom.js';
import { duration, score, signed, usd } from './format.js';
import { data } from './page-data.js';

function splits(s: { train: number | null; holdout: number | null; test?: number | null } | null): string {
  if (!s) return '–';
  const parts = ['train ' + score(s.train)];
  if (s.holdout !== null) parts.push('holdout ' + score(s.holdout));
  if (s.test !== undefined && s.test !== null) parts.push('test ' + score(s.test));
  return parts.join(' · ');
}

function sourceOf(s: SideSummary): string {
  if (!s.evaluation) return 'nothing scored yet';
  return s.evaluation.source === 'final'
    ? 'its final check'
    : 'as decided at iteration ' + s.evaluation.iteration;
}

const FIELDS: [string, (s: SideSummary) => string][] = [
  ['Run', (s) => s.id],
  ['Experiment', (s) => s.experiment ?? '–'],
  ['Status', (s) => s.status + (s.stopReason ? ' (' + s.stopReason.replace(/_/g, ' ') + ')' : '')],
  ['Iterations', (s) => s.iterations + ', ' + s.kept + ' kept'],
  ['Baseline', (s) => splits(s.baseline)],
  ['Best', (s) => (s.best ? splits(s.best) + ' (iteration ' + s.best.iteration + ')' : '–')],
  [
    'Cost',
    (s) => usd(s.costUsd) + ' · ' + s.calls + ' calls' + (s.simulated.length > 0 ? ' · simulated' : ''),
  ],
  ['Active time', (s) => duration(s.activeSeconds)],
];

function headlines(cmp: RunComparison): HTMLElement {
  const table = el('table', 'iter beside-headlines');
  table.appendChild(
    el(
      'thead',
      null,
      el('tr', null, [el('th', null, ''), el('th', null, 'A (this run)'), el('th', null, 'B')]),
    ),
  );
  const body = el('tbody');
  for (const [name, value] of FIELDS)
    body.appendChild(
      el('tr', null, [el('th', null, name), el('td', null, value(cmp.a)), el('td', null, value(cmp.b))]),
    );
  table.appendChild(body);
  return el('div', 'tablewrap', table);
}

function verdict(cmp: RunComparison): HTMLElement {
  const p = cmp.paired;
  if (!p) return el('p', 'note', 'No case was scored by both runs, so there is no paired difference.');
  const bounds = p.lo === null || p.hi === null ? '' : ' [' + signed(p.lo) + ', ' + signed(p.hi) + ']';
  const said =
    p.lo !== null && p.lo > 0
      ? 'B is better'
      : p.hi !== null && p.hi < 0
        ? 'A is better'
        : 'no difference shown';
  return el('p', 'beside-verdict', [
    'B − A ',
    deltaNode(p.mean),
    bounds +
      ' over ' +
      p.n +
      ' case' +
      (p.n === 1 ? '' : 's') +
      ' (paired, ' +
      Math.round(p.confidence * 100) +
      '%): ',
    el('strong', null, said),
    '; B wins ' + p.wins + ', loses ' + p.losses + ', ties ' + p.ties + '.',
  ]);
}

function caseTable(cmp: RunComparison): HTMLElement {
  const table = el('table', 'iter beside-cases');
  table.appendChild(
    el(
      'thead',
      null,
      el('tr', null, [
        el('th', null, 'Case'),
        el('th', null, 'Split'),
        el('th', 'r', 'A'),
        el('th', 'r', 'B'),
        el('th', 'r', 'B − A'),
      ]),
    ),
  );
  const body = el('tbody');
  for (const c of cmp.cases)
    body.appendChild(
      el('tr', null, [
        el('td', 'mono', c.caseId),
        el('td', null, c.split),
        el('td', 'r num', score(c.a)),
        el('td', 'r num', score(c.b)),
        el('td', 'r', deltaNode(c.d)),
      ]),
    );
  table.appendChild(body);
  return el('div', 'tablewrap', table);
}

export function renderBeside(): HTMLElement | null {
  const cmp = data.beside;
  if (!cmp) return null;
  const box = section('Beside run ' + cmp.b.id, 'beside');
  box.appendChild(headlines(cmp));
  for (const caveat of cmp.caveats) box.appendChild(el('p', 'note', caveat));
  box.appendChild(
    el('h3', null, 'Cases: each run’s best, ' + sourceOf(cmp.a) + ' in A and ' + sourceOf(cmp.b) + ' in B'),
  );
  box.appendChild(verdict(cmp));
  if (cmp.cases.length > 0) box.appendChild(caseTable(cmp));
  if (cmp.onlyInA.length > 0) box.appendChild(el('p', 'muted', 'Only in A: ' + cmp.onlyInA.join(', ')));
  if (cmp.onlyInB.length > 0) box.appendChild(el('p', 'muted', 'Only in B: ' + cmp.onlyInB.join(', ')));
  if (cmp.prompts) {
    box.appendChild(el('h3', null, 'Best prompts, A → B'));
    box.appendChild(
      cmp.prompts.identical
        ? el('p', 'note', 'The two best prompts are the same.')
        : renderHunks(cmp.prompts.hunks),
    );
  }
  return box;
}
