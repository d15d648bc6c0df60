/**
 * One iteration's detail: facts (for a paired decision its intervals and screen), proposals,
 * the per-case churn against what it was compared with, the prompt diff against its parent,
 * and each case's output with its checks, judge scores and grader verdicts.
 */
import type { AgentView, CaseView, GradingView } from '../case-details.js';
import type { IterationView, PanelView, PromptDiffView } from '../report-data.js';
import { renderChurn } from './churn.js';
import { type Child, el, pill } from './dom.js';
import { alpha, bounds, isNum, score, screenMean, signed, sortedEntries } from './format.js';
import { renderCandidates } from './pool.js';

/** Who sat on the panel, how their scores were combined and how far they agreed, per criterion too. */
function describePanel(panel: PanelView): Child[] {
  const criteria = Object.keys(panel.alphaByCriterion).sort();
  return [
    panel.members.length +
      ' judges (' +
      panel.members.join(', ') +
      '), ' +
      panel.aggregate +
      ' of their scores; ',
    "agreement (Krippendorff's alpha, ordinal) " + alpha(panel.alpha),
    criteria.length
      ? el(
          'span',
          'chips',
          criteria.map((k) => el('span', 'chip', k + ' α ' + alpha(panel.alphaByCriterion[k]))),
        )
      : '',
  ];
}

function kv(list: HTMLElement, key: string, value: Child | Child[]): void {
  if (value === null || value === undefined || value === '') return;
  list.appendChild(el('dt', null, key));
  list.appendChild(el('dd', null, value));
}

export function renderDetail(it: IterationView): HTMLElement {
  const box = el('div', 'detailbody');
  const facts = el('dl', 'kv');
  kv(facts, 'Hypothesis', it.hypothesis || '—');
  kv(facts, 'Decision', [pill(it.status), it.reason ? ' ' + it.reason : '']);
  kv(facts, 'Paired decision', it.paired ? describePaired(it) : null);
  kv(facts, 'Screen', it.screen ? describeScreen(it) : null);
  kv(facts, 'Gate failure', it.gateFailure);
  // A decided iteration's message is its decision's reason, shown above; only an error's is news.
  const failed = it.errorKind || it.status === 'error';
  kv(facts, 'Error', failed ? [it.errorKind, it.message].filter(Boolean).join(': ') || 'error' : null);
  kv(facts, 'Note', !failed && it.message && it.message !== it.reason ? it.message : null);
  // A pareto run (docs/design/pareto-search.md): the member(s) it came from, not an incumbent.
  kv(
    facts,
    'Lineage',
    it.lineage
      ? (it.lineage.from.length ? 'from ' + it.lineage.from.join(' + ') : 'the root of the pool') +
          (it.lineage.member ? ' → ' + it.lineage.member : ', not pooled')
      : null,
  );
  kv(
    facts,
    'Compared with',
    it.parent === null || it.lineage
      ? null
      : 'iteration ' +
          it.parent +
          (isNum(it.incumbentBefore) ? ' (train ' + score(it.incumbentBefore) + ')' : ''),
  );
  kv(
    facts,
    'Repeats',
    it.duplicateOf === null ? null : 'the prompt already tried in iteration ' + it.duplicateOf,
  );
  kv(facts, 'Strategy', it.strategy);
  kv(facts, 'Commit', it.commit ? el('span', 'mono', it.commit) : null);
  const criteria = sortedEntries(it.criteria);
  kv(
    facts,
    'Judge criteria',
    criteria.length
      ? el(
          'span',
          'chips',
          criteria.map(([k, v]) => el('span', 'chip', k + ' ' + v.toFixed(2))),
        )
      : null,
  );
  kv(facts, 'Judge panel', it.panel ? describePanel(it.panel) : null);
  box.appendChild(facts);
  const candidates = renderCandidates(it.iteration);
  if (candidates) box.appendChild(candidates);
  else if (it.proposals.length > 1) box.appendChild(renderProposals(it));
  if (it.paired) box.appendChild(renderChurn(it));
  if (it.diff) {
    box.appendChild(
      el(
        'h3',
        null,
        'Prompt change against ' +
          (it.diff.parentMember
            ? it.diff.parentMember + ' (iteration ' + it.diff.parent + ')'
            : 'iteration ' + it.diff.parent) +
          (it.diff.identical ? '' : ' (+' + it.diff.added + ' −' + it.diff.removed + ' lines)'),
      ),
    );
    box.appendChild(renderDiff(it.diff));
  }
  if (it.prompt !== null) {
    const full = el('details', 'prompt', [
      el('summary', null, it.diff ? 'Whole prompt' : 'Prompt'),
      el('pre', null, it.prompt),
    ]);
    if (!it.diff) full.open = true;
    box.appendChild(full);
  }
  box.appendChild(
    el(
      'h3',
      null,
      'Outputs' +
        (it.shownCandidate !== null && it.proposals.length > 1 ? ' of candidate ' + it.shownCandidate : ''),
    ),
  );
  if (!it.cases.length) box.appendChild(el('p', 'empty', 'No outputs were recorded for this iteration.'));
  it.cases.forEach((c, index) => {
    box.appendChild(renderCase(c, it.cases.length <= 6 || index === 0));
  });
  return box;
}

function describePaired(it: IterationView): string {
  const p = it.paired;
  if (!p) return '';
  const cases = (n: number) => n + (n === 1 ? ' case' : ' cases');
  const parts = ['train Δ ' + signed(p.train.mean) + ' ' + bounds(p.train) + ' over ' + cases(p.train.n)];
  if (p.holdout) {
    const holdout = isNum(p.holdout.lo) ? ' ' + bounds(p.holdout) : '';
    parts.push('holdout Δ ' + signed(p.holdout.mean) + holdout + ' over ' + cases(p.holdout.n));
  }
  const percent = Math.round(p.confidence * 1000) / 10;
  parts.push(
    'one-sided ' +
      percent +
      '% bounds' +
      (p.looks > 1 ? ', decided on the second look (after a retest)' : ''),
  );
  return parts.join(' · ');
}

function describeScreen(it: IterationView): string {
  const s = it.screen;
  if (!s) return '';
  const on =
    ' on ' +
    s.cases.length +
    ' train case' +
    (s.cases.length === 1 ? '' : 's') +
    ' (' +
    s.cases.join(', ') +
    ')';
  return (
    screenMean(s) +
    on +
    (s.passed
      ? ': above 0, so the rest was evaluated'
      : ': not above 0, so the rest was skipped, ' + s.callsSaved + ' calls saved')
  );
}

function renderProposals(it: IterationView): HTMLElement {
  const table = el('table', null, [
    el(
      'thead',
      null,
      el('tr', null, [
        el('th', 'r', 'Candidate'),
        el('th', 'r', 'Train'),
        el('th', 'r', 'Holdout'),
        el('th', null, 'Hypothesis'),
      ]),
    ),
  ]);
  const body = el('tbody');
  for (const p of it.proposals) {
    const note = p.duplicate
      ? ' (duplicate)'
      : p.screen && !p.screen.passed
        ? ' (screened out: ' + screenMean(p.screen) + ')'
        : p.gateFailure
          ? ' (gate failed)'
          : '';
    body.appendChild(
      el('tr', null, [
        el('td', 'r', (p.decided ? '● ' : '') + p.candidate),
        el('td', 'r', score(p.train)),
        el('td', 'r', score(p.holdout)),
        el('td', null, (p.hypothesis || '—') + note),
      ]),
    );
  }
  table.appendChild(body);
  return el('div', null, [el('h3', null, 'Proposals (● decided)'), el('div', 'tablewrap', table)]);
}

function renderDiff(diff: PromptDiffView): HTMLElement {
  if (diff.identical) return el('p', 'note', 'Same prompt as iteration ' + diff.parent + '.');
  if (diff.parts) {
    // Several optimised parts: one diff per part, unchanged parts named as such.
    const box = el('div', 'part-diffs');
    for (const part of diff.parts) {
      box.appendChild(el('h4', null, 'Part ' + part.part + (part.identical ? ' (unchanged)' : '')));
      if (!part.identical) box.appendChild(renderHunks(part.hunks));
    }
    return box;
  }
  return renderHunks(diff.hunks);
}

export function renderHunks(hunks: PromptDiffView['hunks']): HTMLElement {
  const pre = el('pre', 'diff');
  for (const h of hunks) {
    pre.appendChild(
      el(
        'span',
        'hunk',
        '@@ -' + h.oldStart + ',' + h.oldLines + ' +' + h.newStart + ',' + h.newLines + ' @@',
      ),
    );
    for (const line of h.lines) {
      const mark = line.op === 'add' ? '+ ' : line.op === 'remove' ? '- ' : '  ';
      pre.appendChild(el('span', line.op, mark + line.text));
    }
  }
  return pre;
}

function caseSummary(c: CaseView): string {
  const parts: string[] = [];
  const checks = c.samples.flatMap((s) => s.checks);
  if (checks.length) parts.push(checks.filter((k) => k.pass).length + '/' + checks.length + ' checks');
  const judged = c.samples.flatMap((s) => (s.judge ? [s.judge] : []));
  if (judged.length) {
    const avg = judged.reduce((sum, judge) => sum + judge.average, 0) / judged.length;
    parts.push('judge ' + avg.toFixed(2) + '/5');
  }
  if (c.grading) parts.push(c.grading.passed + '/' + c.grading.total + ' expectations');
  return parts.join(' · ');
}

/** An agent case (docs/design/agent-runs.md): its end, turns and tools, the files it left, its transcript. */
function renderAgentCase(a: AgentView): HTMLElement {
  const tools = sortedEntries(a.tools).map(([name, n]) => el('span', 'chip', name + ' ×' + n));
  const box = el('div', 'agent-case', [
    el('div', 'chips', [
      el('span', 'chip', 'agent: ' + a.endReason),
      el('span', 'chip', a.turns + ' turns'),
      el('span', 'chip', (a.durationMs / 1000).toFixed(1) + ' s'),
      ...tools,
    ]),
    a.error ? el('p', 'note', a.error) : null,
    el(
      'ul',
      'agent-files',
      a.files.length === 0
        ? [el('li', 'muted', 'No file created, changed or deleted.')]
        : a.files.map((f) =>
            el('li', null, [
              el('span', 'tag', f.status),
              el('span', 'mono', f.path),
              f.skipped ? el('span', 'muted', f.skipped) : null,
            ]),
          ),
    ),
  ]);
  if (a.transcript !== null) {
    const transcript = el('details', 'transcript', [
      el('summary', null, 'Transcript'),
      el('pre', 'output', a.transcript),
    ]);
    if (a.transcriptTruncated)
      transcript.appendChild(
        el('p', 'note', 'Cut for the report; the whole transcript is in the run folder.'),
      );
    box.appendChild(transcript);
  }
  return box;
}

function renderCase(c: CaseView, open: boolean): HTMLElement {
  const split = c.split ? el('span', 'tag' + (c.split === 'holdout' ? ' holdout' : ''), c.split) : null;
  const box = el(
    'details',
    'case',
    el('summary', null, [c.caseId, split, el('span', 'muted', caseSummary(c))]),
  );
  box.open = open;
  for (const s of c.samples) {
    if (c.samples.length > 1) box.appendChild(el('h4', null, 'Sample ' + s.sample));
    if (s.output === null)
      box.appendChild(el('p', 'empty', 'No output was recorded (the generation failed).'));
    else box.appendChild(el('pre', 'output', s.output));
    if (s.truncated)
      box.appendChild(el('p', 'note', 'Cut for the report; the whole output is in the run folder.'));
    if (s.agent) box.appendChild(renderAgentCase(s.agent));
    if (s.checks.length) {
      box.appendChild(
        el(
          'ul',
          'checks',
          s.checks.map((k) =>
            el('li', null, [
              el('span', 'mark ' + (k.pass ? 'ok' : 'no'), k.pass ? '✓' : '✗'),
              el('span', 'mono', k.name),
              k.gate ? el('span', 'tag', 'gate') : null,
              k.error ? el('span', 'tag', 'error') : null,
              el('span', 'muted', k.reason),
            ]),
          ),
        ),
      );
    }
    if (s.judge) {
      box.appendChild(
        el('div', 'chips', [
          el('span', 'chip', 'judge ' + s.judge.average.toFixed(2) + '/5'),
          ...sortedEntries(s.judge.criteria).map(([k, v]) => el('span', 'chip', k + ' ' + v)),
        ]),
      );
      // A panel (docs/design/judge-reliability.md): each member's own scores under the aggregate.
      for (const member of s.judge.members ?? []) {
        box.appendChild(
          el('div', 'chips', [
            el('span', 'chip', member.label),
            ...sortedEntries(member.criteria).map(([k, v]) => el('span', 'chip', k + ' ' + v)),
          ]),
        );
      }
      box.appendChild(el('blockquote', null, s.judge.reasoning));
      for (const [key, answers] of sortedEntries(s.judge.items ?? {})) {
        box.appendChild(
          el(
            'ul',
            'checks',
            answers.map((a) =>
              el('li', null, [
                el('span', 'mark ' + (a.met ? 'ok' : 'no'), a.met ? '✓' : '✗'),
                el('span', 'mono', key),
                el('span', 'muted', a.item),
              ]),
            ),
          ),
        );
      }
    }
  }
  if (c.grading) box.appendChild(renderGrading(c.grading));
  return box;
}

function renderGrading(g: GradingView): HTMLElement {
  const wrap = el('div', null, el('h4', null, 'Grader verdicts (' + g.passed + '/' + g.total + ' passed)'));
  wrap.appendChild(
    el(
      'ul',
      'verdicts',
      g.expectations.map((e) => {
        const mark = e.flag
          ? el('span', 'mark flag', '⚑')
          : el('span', 'mark ' + (e.passed ? 'ok' : 'no'), e.passed ? '✓' : '✗');
        const body = el('div', null, [el('div', null, e.text)]);
        if (e.evidence) body.appendChild(el('blockquote', null, e.evidence));
        if (e.flag) body.appendChild(el('div', 'note', 'Flagged: ' + e.flag));
        return el('li', null, [mark, body]);
      }),
    ),
  );
  if (g.claims.length) {
    wrap.appendChild(el('h4', null, 'Claims checked by the grader'));
    wrap.appendChild(
      el(
        'ul',
        'verdicts',
        g.claims.map((claim) =>
          el('li', null, [
            el('span', 'mark ' + (claim.verified ? 'ok' : 'no'), claim.verified ? '✓' : '✗'),
            el('div', null, [
              el('div', null, claim.claim + ' (' + claim.type + ')'),
              claim.evidence ? el('blockquote', null, claim.evidence) : null,
            ]),
          ]),
        ),
      ),
    );
  }
  return wrap;
}
