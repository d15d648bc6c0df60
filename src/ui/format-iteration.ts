/**
 * One iteration in full for `show <run> <iteration>`: what was tried (the whole hypothesis), how it
 * was decided (the scores, the interval, the decision's own words), and each case of the decided
 * candidate by split, with what failed in it — checks and their reasons, the judge's scores and
 * reasoning, unmet expectations and their evidence — so a `holdout_fail` or a discard can be read
 * from the terminal.
 */
import type { MutatorFeedback } from '../protocol/mutation.js';
import type { CaseView } from '../report/case-details.js';
import type { IterationRecord } from '../run/run-state.js';
import type { CaseScore } from '../scoring/types.js';
import { countChars } from '../loop/text.js';
import { cutVisible, formatField, wrapWords } from './fit-text.js';
import type { Colors } from './terminal.js';

export interface IterationDetail {
  record: IterationRecord;
  /** The decision's own sentences (decision.json), one per candidate decided. */
  decision: string[];
  /** The decided candidate's cases, train then holdout (evaluation.json). */
  scores: CaseScore[];
  cases: CaseView[];
  /** What the mutator's request(s) told it about agents, a failing train case each (mutation.json). */
  toldAboutAgents: AgentDigestShown[];
}

/** One failing case's agent digest as the mutator saw it; `candidate` under pareto (a request each). */
export type AgentDigestShown = { candidate?: number; caseId: string } & NonNullable<
  MutatorFeedback['failing_cases'][number]['agent']
>;

const REASONING_LINES = 3;

export function formatIteration(detail: IterationDetail, c: Colors, width: number): string {
  const { record: r } = detail;
  const cut = (line: string) => cutVisible(line, width);
  const lines: string[] = [];
  const row = (label: string, text: string) => lines.push(formatField(label.padEnd(13), text, width));
  row(
    'Iteration',
    `${r.iteration}: ${r.status}${r.strategy ? ` (${r.strategy})` : ''}${r.candidate === null ? '' : `, candidate ${r.candidate}`}`,
  );
  if (r.hypothesis) row('Hypothesis', r.hypothesis);
  const paired = r.paired;
  const interval = paired
    ? ` [${signed(paired.train.lo)},${signed(paired.train.hi)}], ${paired.wins}↑ ${paired.losses}↓ ${paired.ties}=`
    : '';
  row(
    'Scores',
    [
      `train ${num(r.train)}${r.delta === null ? '' : ` (Δ ${signed(r.delta)}${interval})`}`,
      `holdout ${num(r.holdout)}${paired?.holdout ? ` (Δ ${signed(paired.holdout.mean)} [${signed(paired.holdout.lo)},${signed(paired.holdout.hi)}])` : ''}`,
      `best ${num(r.best)}`,
    ].join(' · '),
  );
  for (const sentence of detail.decision) row('Decision', sentence);
  if (r.gateFailure) row('Gate', r.gateFailure);
  if (r.message && r.errorKind) row('Error', `${r.errorKind}: ${r.message}`);
  row(
    'Cost',
    `$${r.costUsd.toFixed(4)} · ${Math.round(r.seconds)}s${r.commit ? ` · commit ${r.commit.slice(0, 7)}` : ''}`,
  );

  if (detail.scores.length > 0) {
    lines.push('');
    const header = ['CASE', 'SPLIT', 'TOTAL', 'CHECKS', 'JUDGE', 'EXPECT'];
    const body = detail.scores.map((s) => [
      s.caseId,
      s.split,
      num(s.total),
      num(s.checks),
      num(s.judge),
      num(s.expectations),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
    for (const cells of [header, ...body])
      lines.push(
        cut(
          cells
            .map((cell, i) => cell.padEnd(widths[i] as number))
            .join('  ')
            .trimEnd(),
        ),
      );
  }

  const failing = detail.cases.filter(hasFindings);
  if (failing.length > 0) {
    lines.push('', 'What each case lost points on:');
    for (const view of failing) {
      lines.push(cut(`${view.caseId}${view.split ? ` (${view.split})` : ''}`));
      for (const sample of view.samples) {
        const tag = view.samples.length > 1 ? `  [sample ${sample.sample}]` : '';
        if (sample.agent) {
          const a = sample.agent;
          const tools =
            Object.entries(a.tools)
              .map(([name, n]) => `${name} ${n}`)
              .join(', ') || 'no tools';
          const files =
            a.files
              .map((f) => `${f.status === 'created' ? '+' : f.status === 'deleted' ? '-' : '~'}${f.path}`)
              .join(' ') || 'no files';
          lines.push(cut(`  agent ${a.endReason} after ${a.turns} turns · ${tools} · ${files}${tag}`));
        }
        for (const k of sample.checks.filter((k) => !k.pass))
          lines.push(cut(`  ${c.red('✗')} ${k.name}${k.gate ? ' (gate)' : ''}: ${k.reason}${tag}`));
        if (sample.judge && sample.judge.average < 5) {
          const criteria = Object.entries(sample.judge.criteria)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ');
          lines.push(cut(`  judge ${sample.judge.average.toFixed(2)}/5 (${criteria})${tag}`));
          const reasoning = wrapWords(sample.judge.reasoning.replace(/\s+/g, ' '), width - 4, 4).split('\n');
          lines.push(
            `    ${reasoning.slice(0, REASONING_LINES).join('\n')}${reasoning.length > REASONING_LINES ? ' …' : ''}`,
          );
        }
      }
      for (const e of view.grading?.expectations.filter((e) => !e.passed) ?? [])
        lines.push(cut(`  ${c.red('✗')} expectation: ${e.text} — ${e.evidence}`));
    }
  }
  if (detail.toldAboutAgents.length > 0) {
    lines.push('', 'What the mutator was told about agents (train cases only):');
    for (const told of detail.toldAboutAgents) lines.push(cut(`  ${toldLine(told)}`));
  }
  return lines.join('\n');
}

/** A digest in a line: the case, its end, its tools and files (the digest's own lines), its size and what was cut. */
function toldLine(told: AgentDigestShown): string {
  const where = told.candidate === undefined ? '' : ` [candidate ${told.candidate}]`;
  const line = (prefix: string) =>
    told.digest
      .split('\n')
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length);
  const files = line('files: ');
  const parts = [
    `${told.end_reason} after ${told.turns} turns`,
    line('tools: ') ?? '',
    files === undefined ? '' : files.startsWith('none ') ? 'no files' : files,
    `${countChars(told.digest)} chars${told.cut ? `, cut: ${told.cut}` : ''}`,
  ].filter((p) => p !== '');
  return `${told.caseId}${where}: ${parts.join(' · ')}`;
}

function hasFindings(view: CaseView): boolean {
  return (
    view.samples.some((s) => s.agent !== undefined && s.agent.endReason !== 'done') ||
    view.samples.some((s) => s.checks.some((k) => !k.pass) || (s.judge !== null && s.judge.average < 5)) ||
    (view.grading?.expectations.some((e) => !e.passed) ?? false)
  );
}

function num(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : value.toFixed(3);
}

function signed(value: number | null): string {
  if (value === null) return '?';
  return `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(3)}`;
}
