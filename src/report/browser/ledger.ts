/**
 * The ledger per role (docs/design/cost-engine.md): calls (batch, response-cache hits and
 * interactive), input tokens with the prompt cache's writes and reads among them, output tokens and
 * USD, one row per role that made calls.
 */
import { el, section } from './dom.js';
import { data } from './page-data.js';

const ROLE_ORDER = ['generator', 'mutator', 'judge', 'grader'] as const;

function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function dollars(v: number): string {
  return '$' + v.toFixed(v < 10 ? 4 : 2);
}

export function renderLedger(): HTMLElement | null {
  const byRole = data.overview.costByRole;
  const roles = ROLE_ORDER.filter((r) => byRole[r].calls > 0);
  if (roles.length === 0) return null;
  const box = section('Ledger', 'ledger');
  const head = [
    'Role',
    'Calls',
    'Batch',
    'Cached',
    'Interactive',
    'Input',
    'Cache write',
    'Cache read',
    'Output',
    'Cost',
  ];
  const table = el('table', 'iter');
  table.appendChild(
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        head.map((h, i) => el('th', i === 0 ? null : 'r', h)),
      ),
    ),
  );
  const body = el('tbody');
  for (const role of roles) {
    const s = byRole[role];
    body.appendChild(
      el('tr', null, [
        el('td', null, role),
        el('td', 'r', count(s.calls)),
        el('td', 'r', count(s.batchCalls)),
        el('td', 'r', count(s.cachedCalls)),
        el('td', 'r', count(s.calls - s.batchCalls - s.cachedCalls)),
        el('td', 'r', count(s.inputTokens)),
        el('td', 'r', count(s.cacheWriteTokens)),
        el('td', 'r', count(s.cacheReadTokens)),
        el('td', 'r', count(s.outputTokens)),
        el('td', 'r', dollars(s.usd)),
      ]),
    );
  }
  table.appendChild(body);
  box.appendChild(table);
  box.appendChild(
    el(
      'p',
      'note',
      "Tokens of the calls actually made (a response-cache hit, counted under Cached, costs none). Cache write and read are the provider's prompt cache, part of the input.",
    ),
  );
  for (const alert of data.overview.spendAlerts)
    box.appendChild(
      el(
        'p',
        'note',
        'Spend alert: ' +
          Math.round(alert.threshold * 100) +
          '% of budget.usd reached ($' +
          alert.spentUsd.toFixed(2) +
          ' of $' +
          alert.budgetUsd.toFixed(2) +
          ')' +
          (alert.iteration === null ? '' : ' at iteration ' + alert.iteration),
      ),
    );
  return box;
}
