/**
 * Churn (docs/design/paired-acceptance.md): per case, whether the candidate did better or worse
 * than what it was compared with, so a change that fixed some cases and broke others shows as such
 * even when its mean difference is near zero. One mark per case, then the cases named.
 */
import type { PairedCase } from '../artifact-schemas.js';
import type { IterationView } from '../report-data.js';
import { el } from './dom.js';
import { score, signed, tally } from './format.js';

/** Differences this small are ties, as in the decision's own tally. */
const TIE = 1e-9;

function direction(c: PairedCase): 'up' | 'down' | 'tie' {
  return c.d > TIE ? 'up' : c.d < -TIE ? 'down' : 'tie';
}

const MARK = { up: '▲', down: '▼', tie: '=' } as const;

export function renderChurn(it: IterationView): HTMLElement {
  // A pareto candidate (docs/design/pareto-search.md) is compared with the member it came from.
  const member = it.lineage?.from[0];
  const against = member
    ? member + (it.parent === null ? '' : ' (iteration ' + it.parent + ')')
    : it.parent === null
      ? 'the incumbent'
      : 'iteration ' + it.parent;
  const box = el(
    'div',
    'churn',
    el('h3', null, 'Per case against ' + against + ' (▲ better, ▼ worse, = same)'),
  );
  if (it.paired) box.appendChild(el('p', 'note', 'Train: ' + tally(it.paired)));
  if (!it.churn) {
    box.appendChild(el('p', 'empty', 'The per-case figures were not recorded (no decision.json).'));
    return box;
  }
  for (const split of ['train', 'holdout'] as const) {
    const cases = it.churn.filter((c) => c.split === split);
    if (!cases.length) continue;
    const marks = el(
      'div',
      'marks',
      cases.map((c) => {
        const mark = el('span', 'mk ' + direction(c), MARK[direction(c)]);
        mark.title =
          c.caseId + ': ' + score(c.incumbent) + ' → ' + score(c.candidate) + ' (' + signed(c.d) + ')';
        mark.setAttribute('data-case', c.caseId);
        return mark;
      }),
    );
    box.appendChild(
      el('div', 'churnrow', [el('span', 'tag' + (split === 'holdout' ? ' holdout' : ''), split), marks]),
    );
    const named = (dir: 'up' | 'down', label: string) => {
      const list = cases
        .filter((c) => direction(c) === dir)
        .sort((a, b) => (dir === 'up' ? b.d - a.d : a.d - b.d));
      if (!list.length) return null;
      return el('p', 'churnlist ' + dir, [
        el('span', 'mk ' + dir, MARK[dir]),
        label + ': ' + list.map((c) => c.caseId + ' (' + signed(c.d) + ')').join(', '),
      ]);
    };
    box.appendChild(el('div', null, [named('up', 'better on'), named('down', 'worse on')]));
  }
  return box;
}
