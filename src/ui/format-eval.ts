/**
 * The text `autoresearch eval` prints: scores and signals per split, gates, rubric criteria,
 * per-check pass rates, the worst cases with a short reason, unmet expectations with the
 * grader's evidence, cost, the --fail-under verdict and where the record lives. Pure.
 */
import type { CaseReport, EvalReport, SplitReport } from '../eval-command/eval-report.js';
import type { Colors } from './terminal.js';

export interface FormatEvalOptions {
  colors: Colors;
  /** Paths under it are shown relative to it. */
  cwd: string;
  /** How many of the lowest-scoring cases to list (default 5). */
  worst?: number;
}

const LABEL_WIDTH = 12;
const EVIDENCE_LENGTH = 160;

export function formatEval(report: EvalReport, options: FormatEvalOptions): string {
  const c = options.colors;
  const lines: string[] = [];
  const row = (label: string, text: string) => lines.push(`${c.bold(label.padEnd(LABEL_WIDTH))}${text}`);
  const more = (text: string) => lines.push(`${' '.repeat(LABEL_WIDTH)}${text}`);
  const block = (label: string, texts: readonly string[]) => {
    texts.forEach((text, i) => {
      if (i === 0) row(label, text);
      else more(text);
    });
  };
  const rel = (path: string) =>
    path.startsWith(`${options.cwd}/`) ? path.slice(options.cwd.length + 1) : path;

  row(
    'Eval',
    `${report.experiment}  ${c.dim(`${report.samples} sample${report.samples === 1 ? '' : 's'} per case`)}`,
  );
  if (report.simulated) {
    more(
      c.yellow(
        `simulated (${report.simulatedRoles.join(', ')}): these scores show how the tool works, not real quality`,
      ),
    );
  }
  if (report.status === 'error' || report.splits === null) {
    row(
      'Error',
      c.red(report.error ? `${report.error.kind}: ${report.error.message}` : 'the evaluation failed'),
    );
    more(c.dim('no score: a judge or grader failure never becomes one'));
  } else {
    const { splits } = report;
    // `--split test` evaluated the sealed test cases alone: theirs are the only scores.
    const scopes = splits.test ? [splits.test] : [splits.train, splits.holdout, splits.all];
    const overall = splits.test ?? splits.all;
    const scores = table(
      ['split', 'total', 'checks', 'judge', 'expect.', 'cases'],
      scopes.map((s) => {
        return [
          s.split,
          score(s.total),
          score(s.signals.checks),
          score(s.signals.judge),
          score(s.signals.expectations),
          String(s.cases),
        ];
      }),
    );
    block('Scores', [c.dim(scores[0] ?? ''), ...scores.slice(1)]);
    block('Gates', formatGates(overall, c));
    block('Criteria', formatCriteria(scopes, overall, c));
    if (report.judgePanel) block('Panel', formatPanel(report.judgePanel));
    block('Checks', formatChecks(scopes, overall, c));
    block(
      'Worst',
      worstCases(report.cases, options.worst ?? 5).map(
        (item) =>
          `${score(item.total)}  ${item.id} ${c.dim(`(${item.split})`)}${item.reason ? `  ${item.reason}` : ''}`,
      ),
    );
    block('Unmet', formatExpectations(report.cases, c));
  }
  row('Cost', formatCost(report));
  row('Time', `${report.seconds.toFixed(1)} s`);
  if (report.failUnder) {
    const f = report.failUnder;
    const head = `--fail-under ${f.threshold} (${f.split})`;
    row(
      'Verdict',
      f.passed
        ? c.green(`passed: ${head}, score ${score(f.score)}`)
        : c.red(`FAILED ${head}: ${f.reason ?? 'below the threshold'}`),
    );
  }
  row('Record', `${report.runId}  ${c.dim(rel(report.runDir))}`);
  return lines.join('\n');
}

/**
 * Who judged, how their scores combined and how far they agreed (docs/design/judge-reliability.md).
 */
function formatPanel(panel: NonNullable<EvalReport['judgePanel']>): string[] {
  const alpha = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : v.toFixed(2));
  const perCriterion = Object.entries(panel.alphaByCriterion)
    .map(([key, value]) => `${key} ${alpha(value)}`)
    .join(', ');
  return [
    `${panel.members.length} judges (${panel.members.join(', ')}), ${panel.aggregate} of their scores`,
    `agreement (Krippendorff's alpha, ordinal): ${alpha(panel.alpha)}${perCriterion ? `  (${perCriterion})` : ''}`,
  ];
}

function score(value: number | null): string {
  return value === null ? '—' : value.toFixed(4);
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** Left-aligned first column, right-aligned others, two spaces apart; padding before colour. */
function table(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((r) => (r[col] ?? '').length)));
  return all.map((r) =>
    r
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

function formatGates(all: SplitReport, c: Colors): string[] {
  const gates = all.checks.filter((check) => check.gate);
  if (gates.length === 0) return [c.dim('none configured')];
  if (!all.gateFailed) return [c.green(`all passed (${gates.map((g) => g.name).join(', ')})`)];
  const failures = all.gateFailures;
  const shown = failures
    .slice(0, 5)
    .map((f) => `${f.check} on ${f.caseId}#${f.sample}: ${oneLine(f.reason, 100)}`);
  const rest = failures.length > shown.length ? [c.dim(`… and ${failures.length - shown.length} more`)] : [];
  return [
    c.red(
      `FAILED: ${failures.length} gate failure${failures.length === 1 ? '' : 's'} (the prompt is ineligible)`,
    ),
    ...shown,
    ...rest,
  ];
}

/** `scopes`: the splits as columns; `overall`: the one whose rows (criteria, checks) list. */
function formatCriteria(scopes: readonly SplitReport[], overall: SplitReport, c: Colors): string[] {
  const keys = Object.keys(overall.criteria);
  if (keys.length === 0) return [c.dim('no rubric (no judge)')];
  const lines = table(
    ['1–5', ...scopes.map((s) => s.split)],
    keys.map((key) => [
      key,
      ...scopes.map((s) => (s.criteria[key] === undefined ? '—' : (s.criteria[key] as number).toFixed(2))),
    ]),
  );
  return [c.dim(lines[0] ?? ''), ...lines.slice(1)];
}

function formatChecks(scopes: readonly SplitReport[], overall: SplitReport, c: Colors): string[] {
  const names = overall.checks;
  if (names.length === 0) return [c.dim('none')];
  const lines = table(
    ['pass rate', ...scopes.map((s) => s.split)],
    names.map((check) => [
      `${check.name}${check.gate ? ' (gate)' : ''}`,
      ...scopes.map((s) => {
        const rate = s.checks.find((r) => r.name === check.name && r.gate === check.gate);
        return rate ? `${percent(rate.passRate)} ${rate.passed}/${rate.total}` : '—';
      }),
    ]),
  );
  return [c.dim(lines[0] ?? ''), ...lines.slice(1)];
}

export function worstCases(cases: readonly CaseReport[], count: number): CaseReport[] {
  return cases
    .filter((item) => item.total !== null && item.total < 1)
    .sort((a, b) => (a.total as number) - (b.total as number) || (a.id < b.id ? -1 : 1))
    .slice(0, count);
}

function formatExpectations(cases: readonly CaseReport[], c: Colors): string[] {
  const lines: string[] = [];
  for (const item of cases) {
    for (const unmet of item.failedExpectations) {
      lines.push(`${item.id}  "${oneLine(unmet.text, 100)}"`);
      if (unmet.flag) lines.push(c.dim(`  ${unmet.flag}`));
      if (unmet.evidence.trim() !== '')
        lines.push(c.dim(`  evidence: "${oneLine(unmet.evidence, EVIDENCE_LENGTH)}"`));
    }
  }
  return lines;
}

function formatCost(report: EvalReport): string {
  const { cost } = report;
  const roles = Object.entries(cost.byRole)
    .map(([role, spend]) => `${role} ${spend.calls}`)
    .join(', ');
  const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;
  const byRole = roles ? ` (${roles})` : '';
  // Every call to a model with no price: there is no sum to show, only what would give one.
  if (cost.calls > 0 && cost.unpricedCalls === cost.calls)
    return `unknown: ${calls(cost.calls)}${byRole}, all to models with no price; set \`price\` on their entries to count them`;
  const unpriced =
    cost.unpricedCalls > 0 ? ` for the priced calls, and ${calls(cost.unpricedCalls)} with no price,` : '';
  const free = report.simulated && cost.usd === 0 ? ' (simulated: free)' : '';
  return `$${cost.usd.toFixed(4)}${unpriced} over ${calls(cost.calls)}${byRole}${free}`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
