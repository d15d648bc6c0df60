/**
 * The human labels `autoresearch calibrate` measures the judge against
 * (docs/design/judge-reliability.md): a YAML list, one entry per output a person has scored —
 *
 *   - output: "text of an output"        # or { file: path }, relative to the labels file
 *     case: saas-cto                     # optional: the case it answers (for judging.inputs)
 *     scores: { clarity: 4, relevance: 2 }          # rubric criterion keys, integers 1–5
 *     expectations: { "Names one concrete pain": pass }   # optional, pass | fail
 *
 * Every bad entry is reported at once, at its line, with the key path and a hint; nothing is
 * judged until the file is clean.
 */
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { suggestNearest } from '../did-you-mean.js';
import { AutoresearchError, type Problem, ValidationError } from '../errors.js';
import { formatKeyPath, type KeyPath } from '../experiment/key-path.js';
import { invalidUtf8Problem, readSourceFile } from '../experiment/read-source.js';
import type { Experiment } from '../experiment/types.js';
import { locate, parseYamlSource, type YamlSource } from '../experiment/yaml-source.js';
import { describeIssues } from '../experiment/zod-problems.js';
import { sha256Hex } from '../sha256.js';
import { findDuplicateLabels } from './duplicate-labels.js';

export const LABELS_FILE = 'labels.yaml';

const Verdict = z.enum(['pass', 'fail']);

export const LabelEntry = z.strictObject({
  output: z.union([z.string().min(1), z.strictObject({ file: z.string().min(1) })]),
  case: z.string().min(1).optional(),
  scores: z.record(z.string(), z.number().int().min(1).max(5)).optional(),
  expectations: z.record(z.string(), Verdict).optional(),
});
export type LabelEntry = z.infer<typeof LabelEntry>;

export interface Label {
  /** 0-based position in the file. */
  index: number;
  line: number;
  output: string;
  /** The `{ file }` it was read from, as written; null for inline text. */
  file: string | null;
  caseId: string | null;
  /** Human score per rubric criterion key (only the criteria this entry labels). */
  scores: Record<string, number>;
  expectations: { text: string; pass: boolean }[];
}

export interface LabelsContext {
  experiment: Pick<Experiment, 'cases' | 'rubric' | 'config'>;
}

export interface ReadLabels {
  labels: Label[];
  /** Of the file's text, for calibration.json. */
  sha256: string;
  /** Warnings only: errors are thrown. */
  warnings: Problem[];
}

const FORMAT_HINT =
  'each entry: `- output: "…"` (or `output: { file: path }`), `scores: { criterion: 1..5 }`, optional `case:` and `expectations: { "text": pass|fail }` (see docs/rubrics.md, "Measure your judge")';

/** Reads and checks the labels file; throws a ValidationError (exit 2) listing every problem. */
export async function readLabels(file: string, context: LabelsContext): Promise<ReadLabels> {
  const read = await readSourceFile(file);
  if (!read.ok) {
    if (read.invalidUtf8) throw new ValidationError([invalidUtf8Problem(file, read.invalidUtf8)]);
    throw new AutoresearchError('E_USAGE', `the labels file ${file} ${read.reason}`, {
      hint: `write one (\`autoresearch init\` scaffolds a template; the format is in docs/rubrics.md, "Measure your judge") or point --labels at it`,
    });
  }
  const source = parseYamlSource(file, read.text);
  const problems: Problem[] = [...source.problems];
  const labels: Label[] = [];
  if (source.usable) await readEntries(file, source, context, problems, labels);
  problems.push(...findDuplicateLabels(file, labels));
  if (problems.some((p) => p.severity === 'error')) throw new ValidationError(problems);
  return { labels, sha256: sha256Hex(read.text), warnings: problems };
}

async function readEntries(
  file: string,
  source: YamlSource,
  context: LabelsContext,
  problems: Problem[],
  labels: Label[],
): Promise<void> {
  const problem = (path: KeyPath, message: string, hint?: string, severity: Problem['severity'] = 'error') =>
    problems.push({
      severity,
      location: { file, ...locate(source, path) },
      keyPath: formatKeyPath(path),
      message,
      ...(hint === undefined ? {} : { hint }),
    });
  const data = source.data;
  if (!Array.isArray(data) || data.length === 0) {
    problem(
      [],
      data === null || data === undefined || (Array.isArray(data) && data.length === 0)
        ? 'no labels: the labels file is empty'
        : 'a labels file must be a YAML list of labelled outputs',
      FORMAT_HINT,
    );
    return;
  }
  const { experiment } = context;
  const criteria = experiment.rubric?.criteria.map((c) => c.key) ?? [];
  const caseIds = experiment.cases.map((c) => c.id);
  const inputs = experiment.config.judging?.inputs === true;
  for (const [index, raw] of data.entries()) {
    const parsed = LabelEntry.safeParse(raw);
    if (!parsed.success) {
      problems.push(
        ...describeIssues(parsed.error.issues, {
          file,
          schema: LabelEntry,
          data: raw,
          locate: (path) => locate(source, [index, ...path]),
          prefix: [index],
        }),
      );
      continue;
    }
    const entry = parsed.data;
    const before = problems.length;
    const scores = entry.scores ?? {};
    const expectations = Object.entries(entry.expectations ?? {});
    if (Object.keys(scores).length === 0 && expectations.length === 0) {
      problem([index], 'this entry labels nothing: it has no `scores` and no `expectations`', FORMAT_HINT);
    }
    if (Object.keys(scores).length > 0 && experiment.rubric === undefined) {
      problem(
        [index, 'scores'],
        'scores are labelled but the experiment has no rubric, so there is no judge to measure',
        'add `rubric:` to experiment.yaml, or label only expectations',
      );
    } else {
      for (const key of Object.keys(scores)) {
        if (criteria.includes(key)) continue;
        const near = suggestNearest(key, criteria);
        problem(
          [index, 'scores', key],
          `\`${key}\` is not a criterion of the rubric`,
          near ? `did you mean \`${near}\`?` : `the rubric's criteria: ${criteria.join(', ')}`,
        );
      }
    }
    for (const [text] of expectations) {
      if (text.trim() === '') problem([index, 'expectations', text], 'an expectation text is empty');
    }
    if (entry.case !== undefined && !caseIds.includes(entry.case)) {
      const near = suggestNearest(entry.case, caseIds);
      problem(
        [index, 'case'],
        `no case has the id \`${entry.case}\``,
        near ? `did you mean \`${near}\`?` : 'use the `id` of a case in the cases file, or leave `case` out',
      );
    }
    if (entry.case === undefined && inputs) {
      problem(
        [index],
        'judging.inputs is on but this entry names no case: the judge will see the output without its inputs',
        'add `case: <id>` so the judge reads the conversation this output answers',
        'warning',
      );
    }
    const output = await readOutput(entry.output, [index, 'output'], file, problem);
    if (output === undefined || problems.slice(before).some((p) => p.severity === 'error')) continue;
    labels.push({
      index,
      line: locate(source, [index]).line,
      output,
      file: typeof entry.output === 'string' ? null : entry.output.file,
      caseId: entry.case ?? null,
      scores,
      expectations: expectations.map(([text, verdict]) => ({ text, pass: verdict === 'pass' })),
    });
  }
}

async function readOutput(
  output: LabelEntry['output'],
  path: KeyPath,
  labelsFile: string,
  problem: (path: KeyPath, message: string, hint?: string) => void,
): Promise<string | undefined> {
  if (typeof output === 'string') return output;
  const absolute = resolve(dirname(labelsFile), output.file);
  const read = await readSourceFile(absolute);
  if (!read.ok) {
    problem(
      [...path, 'file'],
      `output file "${output.file}" ${read.reason}`,
      `paths are relative to the labels file; this one resolves to ${absolute}`,
    );
    return undefined;
  }
  if (read.text.trim() === '') {
    problem([...path, 'file'], `output file "${output.file}" is empty`);
    return undefined;
  }
  return read.text;
}
