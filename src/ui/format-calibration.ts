/**
 * A calibration (calibration.json, docs/design/judge-reliability.md) as text, for `calibrate` and
 * `show`: per criterion the agreement with the human labels and its 95% bootstrap interval, the
 * grader's TPR/TNR/MCC, the largest disagreements (where to look first), the bias probes' verdicts
 * and a plain reading of the lowest kappa.
 */
import { type CalibrationFile, type Estimate, labelledOutputs } from '../calibrate/calibration-file.js';
import type { ProbeResult } from '../calibrate/probe-result.js';
import { formatProbeLines } from './format-probes.js';
import { cutText, toOneLine } from '../loop/text.js';
import { formatUsd } from './format-runs.js';
import type { Colors } from './terminal.js';

export interface CalibrationTextOptions {
  colors: Colors;
}

/** Below this many labels an interval is too wide to read much into. */
export const FEW_LABELS = 10;
const DISAGREEMENTS_SHOWN = 5;

/** Rough bands for kappa (Landis and Koch's wording), used only to put a number into words. */
export function describeKappa(kappa: number): string {
  if (kappa >= 0.8) return 'strong agreement';
  if (kappa >= 0.6) return 'substantial agreement';
  if (kappa >= 0.4) return 'moderate agreement: read its scores with care';
  if (kappa >= 0.2) return 'weak agreement: do not let this judge decide alone';
  return 'no better than chance: this judge does not measure what the labels do';
}

function figure(value: number | null, digits = 2): string {
  return value === null ? 'n/a' : value.toFixed(digits);
}

export function formatEstimate(e: Estimate): string {
  if (e.estimate === null) return 'n/a';
  const interval = e.interval === null ? '[n/a]' : `[${figure(e.interval[0])}, ${figure(e.interval[1])}]`;
  return `${figure(e.estimate)} ${interval}`;
}

export function formatCalibration(c: CalibrationFile, options: CalibrationTextOptions): string {
  const k = options.colors;
  const lines: string[] = [];
  const sim = c.simulated.length > 0 ? k.yellow(` — simulated (${c.simulated.join(', ')})`) : '';
  const measured = c.judge === null ? 'grader' : 'judge';
  lines.push(
    k.bold(`Calibration of ${c.experiment}'s ${measured}: ${labelledOutputs(c.labels.count)}`) + sim,
  );
  const parts = [
    c.judge === null ? null : `judge: ${c.judge}`,
    c.grader === null ? null : `grader: ${c.grader}`,
  ];
  lines.push(parts.filter((p) => p !== null).join('    '));
  lines.push(`labels: ${c.labels.file}    run: ${c.runId}    cost: ${formatUsd(c.costUsd)}`);
  lines.push(
    k.dim(
      `intervals: ${Math.round(c.bootstrap.level * 100)}% percentile bootstrap, ${c.bootstrap.resamples} resamples, seed ${c.bootstrap.seed}`,
    ),
  );
  lines.push('');

  const labelled = c.criteria.filter((x) => x.labels > 0);
  if (labelled.length > 0) {
    const header = ['criterion', 'n', 'exact', 'within one', 'kappa', 'spearman', 'mean human/judge'];
    const rows = labelled.map((x) => [
      x.criterion,
      String(x.labels),
      formatEstimate(x.exact),
      formatEstimate(x.withinOne),
      formatEstimate(x.kappa),
      formatEstimate(x.spearman),
      `${figure(x.humanMean, 1)} / ${figure(x.judgeMean, 1)}`,
    ]);
    lines.push(...table(header, rows, k));
    const unlabelled = c.criteria.filter((x) => x.labels === 0).map((x) => x.criterion);
    if (unlabelled.length > 0) lines.push(k.dim(`not labelled: ${unlabelled.join(', ')}`));
    if (Math.min(...labelled.map((x) => x.labels)) < FEW_LABELS) {
      lines.push(k.yellow(`few labels: with under ${FEW_LABELS} per criterion the intervals are wide`));
    }
    lines.push('');
  }

  if (c.expectations !== null) {
    const e = c.expectations;
    lines.push(
      k.bold(
        `Expectations: the grader against ${e.labels} labelled ${e.labels === 1 ? 'verdict' : 'verdicts'}`,
      ),
    );
    lines.push(
      `  TPR ${formatEstimate(e.tpr)}   TNR ${formatEstimate(e.tnr)}   MCC ${formatEstimate(e.mcc)}`,
    );
    lines.push(
      k.dim(
        `  passed by both ${e.tp}, failed by both ${e.tn}, grader-only pass ${e.fp}, grader-only fail ${e.fn}`,
      ),
    );
    lines.push('');
  }

  const disagreements = findDisagreements(c);
  if (disagreements.length > 0) {
    lines.push(k.bold('Largest disagreements'));
    for (const d of disagreements.slice(0, DISAGREEMENTS_SHOWN)) {
      const where = `line ${d.line}${d.case === null ? '' : ` (${d.case})`}`;
      const why = d.reasoning === null ? '' : k.dim(` — ${cutText(toOneLine(d.reasoning), 90)}`);
      lines.push(
        `  ${where}: ${d.criterion} human ${d.human}, judge ${figure(d.judge, Number.isInteger(d.judge) ? 0 : 1)}${why}`,
      );
    }
    lines.push('');
  }

  lines.push(k.bold('Bias probes'));
  lines.push(...formatProbes(c.probes, c.judge !== null, k));
  lines.push('');

  if (c.lowestKappa === null) {
    lines.push(
      labelled.length === 0
        ? 'No criterion scores were labelled: only the grader was measured.'
        : k.yellow('No kappa is defined: the labels or the judge use a single score everywhere.'),
    );
  } else {
    lines.push(
      `Lowest kappa ${c.lowestKappa.kappa.toFixed(2)} (${c.lowestKappa.criterion}): ${describeKappa(c.lowestKappa.kappa)}.`,
    );
  }
  return lines.join('\n');
}

function formatProbes(probes: readonly ProbeResult[] | null, judged: boolean, k: Colors): string[] {
  if (probes === null)
    return [
      k.dim(
        judged
          ? '  skipped (--no-probes)'
          : '  none: there is no judge to probe (only the grader was measured)',
      ),
    ];
  return formatProbeLines(probes).map((line, i) => {
    const p = probes[i] as ProbeResult;
    const paint = p.biased === true ? k.red : p.applicable ? (x: string) => x : k.dim;
    return `  ${paint(line)}`;
  });
}

interface Disagreement {
  line: number;
  case: string | null;
  criterion: string;
  human: number;
  judge: number;
  reasoning: string | null;
}

/** Every (output, criterion) where the judge is two points or more from the human, largest first. */
export function findDisagreements(c: CalibrationFile): Disagreement[] {
  const found: Disagreement[] = [];
  for (const output of c.outputs) {
    for (const [criterion, human] of Object.entries(output.human)) {
      const judge = output.judge[criterion];
      if (judge === undefined || Math.abs(judge - human) < 2) continue;
      found.push({
        line: output.line,
        case: output.case,
        criterion,
        human,
        judge,
        reasoning: output.reasoning,
      });
    }
  }
  return found.sort((a, b) => Math.abs(b.judge - b.human) - Math.abs(a.judge - a.human) || a.line - b.line);
}

function table(header: readonly string[], rows: readonly string[][], k: Colors): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 1 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [k.bold(line(header)), ...rows.map(line)];
}
