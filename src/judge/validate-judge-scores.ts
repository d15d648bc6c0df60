/**
 * The runner's check of a judge's `judge-scores.json` (docs/design/judge-protocol.md): every output
 * exactly once, exactly the rubric's criteria, integer 1–5 scores (or integer sample sets),
 * non-empty reasoning, and — optional, so a judge that ignores checklists stays valid — `items`,
 * the answers to checklist criteria (docs/design/judge-reliability.md). The judge's own averages
 * and quality_score are ignored and recomputed.
 */
import {
  isValidScore,
  meanOfSamples,
  type ScoredOutput,
  type ScoreSummary,
  summariseScores,
} from './judge-scores.js';
import { isRecord } from '../is-record.js';
import { cutText } from '../loop/text.js';
import type { ChecklistAnswers } from '../scoring/types.js';

export interface JudgeExpectation {
  /** The file names the sandbox held. */
  files: readonly string[];
  /** The rubric's criterion keys. */
  criteria: readonly string[];
}

export type JudgeScoresCheck =
  | ({ ok: true; outputs: ScoredOutput[] } & ScoreSummary)
  | { ok: false; problems: string[] };

const MAX_PROBLEMS = 8;

// What the judge wrote, cut: a score or a name of megabytes would otherwise fill the journal's message.
function describe(value: unknown): string {
  return cutText(JSON.stringify(value) ?? String(value), 80);
}

/** Problems with one score set: exactly the keys, each checked by `valid`. */
function checkScoreSet(
  set: unknown,
  keys: readonly string[],
  where: string,
  valid: (v: unknown) => boolean,
  wanted: string,
): string[] {
  if (!isRecord(set)) return [`${where} is not an object`];
  const problems: string[] = [];
  for (const key of keys) {
    if (!(key in set)) problems.push(`${where} lacks criterion "${key}"`);
    else if (!valid(set[key])) problems.push(`${where}.${key} is ${describe(set[key])}, expected ${wanted}`);
  }
  for (const key of Object.keys(set)) {
    if (!keys.includes(key))
      problems.push(`${where} has criterion ${describe(key)}, which the rubric does not define`);
  }
  return problems;
}

/** `items`: per rubric criterion, a list of `{item: text, met: true|false}`. */
function checkItems(items: unknown, keys: readonly string[], where: string): string[] {
  if (!isRecord(items)) return [`${where} is not an object`];
  const problems: string[] = [];
  for (const [key, answers] of Object.entries(items)) {
    if (!keys.includes(key))
      problems.push(`${where} has criterion ${describe(key)}, which the rubric does not define`);
    else if (
      !Array.isArray(answers) ||
      !answers.every((a) => isRecord(a) && typeof a['item'] === 'string' && typeof a['met'] === 'boolean')
    )
      problems.push(`${where}.${key} must be a list of {"item": text, "met": true|false}`);
  }
  return problems;
}

/** The answers as checked, without whatever else a judge wrote beside them. */
function normaliseItems(items: ChecklistAnswers): ChecklistAnswers {
  return Object.fromEntries(
    Object.entries(items).map(([key, answers]) => [key, answers.map(({ item, met }) => ({ item, met }))]),
  );
}

function checkEntry(entry: Record<string, unknown>, file: string, keys: readonly string[]) {
  const problems: string[] = [];
  const rawSamples = entry['samples'];
  let samples: Record<string, number>[] | undefined;
  if (rawSamples !== undefined) {
    if (!Array.isArray(rawSamples) || rawSamples.length === 0) {
      problems.push(`${file}: samples must be a non-empty list of score sets`);
    } else {
      rawSamples.forEach((set, i) => {
        problems.push(...checkScoreSet(set, keys, `${file}: samples[${i}]`, isValidScore, 'an integer 1-5'));
      });
      samples = rawSamples as Record<string, number>[];
    }
  }
  // With samples, criteria_scores are their means (recomputed); without, integers 1-5.
  const inRange = (v: unknown) => typeof v === 'number' && v >= 1 && v <= 5;
  problems.push(
    ...checkScoreSet(
      entry['criteria_scores'],
      keys,
      `${file}: criteria_scores`,
      samples === undefined ? isValidScore : inRange,
      samples === undefined ? 'an integer 1-5' : 'a number 1-5',
    ),
  );
  const reasoning = entry['reasoning'];
  if (typeof reasoning !== 'string' || reasoning.trim() === '') problems.push(`${file}: reasoning is empty`);
  const items = entry['items'];
  if (items !== undefined) problems.push(...checkItems(items, keys, `${file}: items`));
  if (problems.length > 0) return { problems };
  const criteria =
    samples === undefined
      ? Object.fromEntries(keys.map((k) => [k, (entry['criteria_scores'] as Record<string, number>)[k] ?? 0]))
      : meanOfSamples(samples, keys);
  const scored: ScoredOutput = {
    file,
    criteria,
    reasoning: (reasoning as string).trim(),
    ...(items === undefined ? {} : { items: normaliseItems(items as ChecklistAnswers) }),
    ...(samples === undefined
      ? {}
      : { samples: samples.map((s) => Object.fromEntries(keys.map((k) => [k, s[k] ?? 0]))) }),
  };
  return { problems, scored };
}

export function validateJudgeScores(raw: unknown, expected: JudgeExpectation): JudgeScoresCheck {
  if (!isRecord(raw) || !Array.isArray(raw['per_output'])) {
    return { ok: false, problems: ['judge-scores.json has no per_output list'] };
  }
  const problems: string[] = [];
  const byFile = new Map<string, ScoredOutput>();
  const seen = new Set<string>();
  for (const [index, entry] of raw['per_output'].entries()) {
    if (!isRecord(entry) || typeof entry['file'] !== 'string') {
      problems.push(`per_output[${index}] has no file name`);
      continue;
    }
    const file = entry['file'];
    if (!expected.files.includes(file)) {
      problems.push(`per_output[${index}] names ${describe(file)}, which is not one of the outputs`);
      continue;
    }
    if (seen.has(file)) {
      problems.push(`${file} is scored more than once`);
      continue;
    }
    seen.add(file);
    const checked = checkEntry(entry, file, expected.criteria);
    problems.push(...checked.problems);
    if (checked.scored !== undefined) byFile.set(file, checked.scored);
  }
  for (const file of expected.files) if (!seen.has(file)) problems.push(`${file} was not scored`);
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(`… and ${problems.length - MAX_PROBLEMS} more`);
    return { ok: false, problems: shown };
  }
  const outputs = expected.files.map((file) => byFile.get(file) as ScoredOutput);
  return { ok: true, outputs, ...summariseScores(outputs, expected.criteria) };
}
