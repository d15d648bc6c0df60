/**
 * `eval --junit FILE`: the evaluation as JUnit XML for CI dashboards.
 *
 *   <testsuites>                     the experiment; tests/failures over every case, time = the
 *                                    evaluation's wall-clock seconds (suites: their cases' sum)
 *     <testsuite name="<exp>.train">   one suite per split that has cases (train, holdout, test), so
 *     <testsuite name="<exp>.holdout"> each case appears exactly once; <properties> hold the
 *                                      split's scores and the overall (all) ones
 *       <testcase classname="<exp>" name="<case id>" time="<generator seconds>">
 *         <failure>                   when a generation failed, a check failed or an expectation
 *                                     was not met: every failed check with its reason, unmet
 *                                     expectations with the grader's evidence, the judge's score
 *         <system-out>                the case's scores and the judge's verdict
 *
 * A failed evaluation (judge or grader error) is one suite with one `<error>` test case.
 * Model outputs can hold anything, so every value is escaped and characters XML 1.0 forbids
 * are dropped; no CDATA is used, so `]]>` is just text.
 */
import type { CaseReport, EvalReport, SplitReport } from '../eval-command/eval-report.js';
import { writeTextAtomic } from '../run/records.js';

// Everything outside XML 1.0's Char production: C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF.
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const LINE_LIMIT = 2000;

export function stripInvalidXmlChars(text: string): string {
  return text.replace(FORBIDDEN, '');
}

export function escapeXmlText(text: string): string {
  return stripInvalidXmlChars(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Attribute values also keep their quotes, tabs and line breaks (parsers would fold them to spaces). */
export function escapeXmlAttr(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([key, value]) => ` ${key}="${escapeXmlAttr(String(value))}"`)
    .join('');
}

export function buildJunitXml(report: EvalReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const exp = report.experiment;
  if (report.status === 'error' || report.splits === null) {
    const kind = report.error?.kind ?? 'error';
    const message = report.error?.message ?? 'the evaluation failed';
    lines.push(
      `<testsuites${attrs({ name: `autoresearch eval ${exp}`, tests: 1, failures: 0, errors: 1, time: seconds(report.seconds) })}>`,
    );
    lines.push(
      `  <testsuite${attrs({ name: exp, tests: 1, failures: 0, errors: 1, skipped: 0, time: seconds(report.seconds) })}>`,
    );
    lines.push(...properties(report, null, '    '));
    lines.push(
      `    <testcase${attrs({ classname: exp, name: 'evaluation', time: seconds(report.seconds) })}>`,
    );
    lines.push(
      `      <error${attrs({ type: kind, message: clip(`${kind}: ${message}`) })}>${escapeXmlText(clip(message))}</error>`,
    );
    lines.push('    </testcase>', '  </testsuite>', '</testsuites>');
    return `${lines.join('\n')}\n`;
  }
  const { splits } = report;
  const failing = report.cases.filter(isFailing).length;
  lines.push(
    `<testsuites${attrs({ name: `autoresearch eval ${exp}`, tests: report.cases.length, failures: failing, errors: 0, time: seconds(report.seconds) })}>`,
  );
  for (const split of ['train', 'holdout', 'test'] as const) {
    const cases = report.cases.filter((c) => c.split === split);
    if (cases.length === 0) continue;
    const time = cases.reduce((sum, c) => sum + c.seconds, 0);
    lines.push(
      `  <testsuite${attrs({ name: `${exp}.${split}`, tests: cases.length, failures: cases.filter(isFailing).length, errors: 0, skipped: 0, time: seconds(time) })}>`,
    );
    lines.push(...properties(report, splits[split] ?? null, '    '));
    for (const testCase of cases) lines.push(...formatCase(exp, testCase));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

export async function writeJunitFile(file: string, report: EvalReport): Promise<void> {
  await writeTextAtomic(file, buildJunitXml(report));
}

function isFailing(testCase: CaseReport): boolean {
  return (
    testCase.generationErrors.length > 0 ||
    testCase.failedChecks.length > 0 ||
    testCase.failedExpectations.length > 0
  );
}

function properties(report: EvalReport, split: SplitReport | null, indent: string): string[] {
  const values: [string, string][] = [
    ['run_id', report.runId],
    ['experiment', report.experiment],
    ['simulated', String(report.simulated)],
    ['cost_usd', report.cost.usd.toFixed(6)],
  ];
  if (split) {
    values.push(['split', split.split], ...scoreProperties('score', split), [
      'gate_failures',
      String(split.gateFailures.length),
    ]);
    for (const [key, value] of Object.entries(split.criteria))
      values.push([`criterion.${key}`, value.toFixed(4)]);
  }
  if (report.splits)
    values.push(...scoreProperties('all', report.splits.all), [
      'all.gate_failures',
      String(report.splits.all.gateFailures.length),
    ]);
  if (report.failUnder) {
    values.push(
      ['fail_under.threshold', String(report.failUnder.threshold)],
      ['fail_under.split', report.failUnder.split],
    );
    values.push(['fail_under.passed', String(report.failUnder.passed)]);
  }
  return [
    `${indent}<properties>`,
    ...values.map(([name, value]) => `${indent}  <property${attrs({ name, value })}/>`),
    `${indent}</properties>`,
  ];
}

function scoreProperties(prefix: string, split: SplitReport): [string, string][] {
  const entries: [string, number | null][] = [
    ['total', split.total],
    ['checks', split.signals.checks],
    ['judge', split.signals.judge],
    ['expectations', split.signals.expectations],
  ];
  return entries.filter(([, v]) => v !== null).map(([k, v]) => [`${prefix}.${k}`, (v as number).toFixed(4)]);
}

function formatCase(exp: string, testCase: CaseReport): string[] {
  const open = `    <testcase${attrs({ classname: exp, name: testCase.id, time: seconds(testCase.seconds) })}>`;
  const lines = [open];
  if (isFailing(testCase)) {
    const body = [
      ...testCase.generationErrors.map((g) => `generation failed (sample ${g.sample}): ${g.error}`),
      ...testCase.failedChecks.map(
        (f) => `${f.gate ? 'gate ' : ''}check ${f.check} failed (sample ${f.sample}): ${f.reason}`,
      ),
      ...testCase.failedExpectations.map(
        (e) =>
          `expectation not met: "${e.text}"${e.flag ? ` (${e.flag})` : ''}${e.evidence.trim() ? ` evidence: "${e.evidence}"` : ''}`,
      ),
      ...judgeLines(testCase),
      scoreLine(testCase),
    ].map(clip);
    lines.push(
      `      <failure${attrs({ type: failureType(testCase), message: summarise(testCase) })}>${escapeXmlText(body.join('\n'))}</failure>`,
    );
  }
  lines.push(
    `      <system-out>${escapeXmlText([scoreLine(testCase), ...judgeLines(testCase)].map(clip).join('\n'))}</system-out>`,
  );
  lines.push('    </testcase>');
  return lines;
}

function failureType(testCase: CaseReport): string {
  if (testCase.generationErrors.length > 0) return 'generation_failure';
  if (testCase.failedChecks.some((f) => f.gate)) return 'gate_failure';
  if (testCase.failedChecks.length > 0) return 'check_failure';
  return 'expectation_failure';
}

function summarise(testCase: CaseReport): string {
  const count = (n: number, what: string) => (n === 0 ? [] : [`${n} ${what}${n === 1 ? '' : 's'}`]);
  return [
    ...count(testCase.generationErrors.length, 'failed generation'),
    ...count(testCase.failedChecks.length, 'failed check'),
    ...count(testCase.failedExpectations.length, 'unmet expectation'),
  ].join(', ');
}

function judgeLines(testCase: CaseReport): string[] {
  return testCase.judge.map((verdict) => {
    const criteria = Object.entries(verdict.criteria)
      .map(([key, value]) => `${key} ${Number.isInteger(value) ? value : value.toFixed(2)}`)
      .join(', ');
    return `judge (sample ${verdict.sample}): ${criteria}: ${verdict.reasoning}`;
  });
}

function scoreLine(testCase: CaseReport): string {
  const show = (value: number | null) => (value === null ? 'n/a' : value.toFixed(4));
  const { checks, judge, expectations } = testCase.signals;
  return `score ${show(testCase.total)} (checks ${show(checks)}, judge ${show(judge)}, expectations ${show(expectations)})`;
}

function seconds(value: number): string {
  return value.toFixed(3);
}

function clip(text: string): string {
  return text.length > LINE_LIMIT ? `${text.slice(0, LINE_LIMIT - 1)}…` : text;
}
