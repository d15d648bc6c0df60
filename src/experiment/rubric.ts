/**
 * Rubric markdown (docs/design/rubric-format.md): criteria are the headings one level below a
 * heading named "Criteria" (any level, any case) — `###` under `## Criteria`, `##` under
 * `# Criteria`. A criterion's key is its heading in snake_case; an optional `weight: N` line in its
 * body sets its weight (default 1). A criterion whose body lists `- [ ] …` items is a checklist
 * (docs/design/judge-reliability.md): the judge answers each item yes or no instead of scoring 1–5.
 */
import type { Problem } from '../errors.js';
import type { Rubric, RubricCriterion } from './types.js';

interface Heading {
  level: number;
  title: string;
  line: number;
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const WEIGHT_LINE = /^\s*[*_]*weight[*_]*\s*:\s*[*_]*\s*(.*?)\s*[*_]*\s*$/i;
/** `- [ ] Names one concrete pain` (also `*`/`+` bullets and a ticked `[x]`: the tick means nothing here). */
const CHECKLIST_ITEM = /^\s{0,3}[-*+][ \t]+\[[ xX]\][ \t]+(\S.*?)\s*$/;

export interface ParsedRubric {
  rubric?: Rubric;
  problems: Problem[];
}

/** `Audience Fit` → `audience_fit`; a leading "1." or "2)" numbering is dropped. */
export function toCriterionKey(title: string): string {
  return title
    .replace(/^\s*\d+[.)]\s*/, '')
    .replace(/[*_`]/g, ' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export function parseRubric(file: string, text: string): ParsedRubric {
  const lines = text.split(/\r?\n/);
  const headings = findHeadings(lines);
  const problems: Problem[] = [];
  const problem = (line: number, message: string, hint?: string): void => {
    problems.push({
      severity: 'error',
      location: { file, line, col: 1 },
      keyPath: '',
      message,
      ...(hint ? { hint } : {}),
    });
  };

  const sectionIndex = headings.findIndex((h) => /^criteria:?$/i.test(h.title.trim()));
  const section = headings[sectionIndex];
  if (section === undefined) {
    problem(
      1,
      'the rubric has no "Criteria" section',
      'add a `## Criteria` heading with one `###` heading per criterion',
    );
    return { problems };
  }
  const after = headings.slice(sectionIndex + 1);
  const endIndex = after.findIndex((h) => h.level <= section.level);
  const inside = endIndex === -1 ? after : after.slice(0, endIndex);
  const sectionEnd = endIndex === -1 ? lines.length + 1 : (after[endIndex] as Heading).line;
  const criterionLevel = inside[0]?.level;
  const criteriaHeadings = inside.filter((h) => h.level === criterionLevel);
  if (criteriaHeadings.length === 0) {
    problem(
      section.line,
      'the Criteria section lists no criteria',
      `add one heading per criterion under "${section.title}" (e.g. \`${'#'.repeat(section.level + 1)} Clarity\`)`,
    );
    return { problems };
  }

  const criteria: RubricCriterion[] = [];
  const seen = new Map<string, number>();
  for (const [i, heading] of criteriaHeadings.entries()) {
    const key = toCriterionKey(heading.title);
    if (key === '') {
      problem(heading.line, `criterion "${heading.title}" has no letters or digits to make a key from`);
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problem(
        heading.line,
        `duplicate criterion key \`${key}\` (first on line ${earlier})`,
        'rename one of them',
      );
      continue;
    }
    seen.set(key, heading.line);
    const next = criteriaHeadings[i + 1]?.line ?? sectionEnd;
    const weight = readWeight(lines, heading.line, next, problem);
    const items = readChecklist(lines, heading.line, next);
    criteria.push({ key, title: heading.title, weight: weight ?? 1, ...(items.length > 0 ? { items } : {}) });
  }
  if (criteria.length > 0 && problems.length === 0 && criteria.every((c) => c.weight === 0)) {
    problem(section.line, 'every criterion has weight 0', 'give at least one criterion a positive weight');
  }
  if (problems.length > 0) return { problems };
  return { rubric: { path: file, text, criteria }, problems };
}

/** The criterion's `weight:` line between its heading and the next criterion (null when absent). */
function readWeight(
  lines: readonly string[],
  headingLine: number,
  nextLine: number,
  problem: (line: number, message: string, hint?: string) => void,
): number | undefined {
  let weight: number | undefined;
  let seen = false;
  let inFence = false;
  for (let n = headingLine + 1; n < nextLine; n++) {
    const text = lines[n - 1] ?? '';
    if (FENCE.test(text)) inFence = !inFence;
    if (inFence) continue;
    const match = WEIGHT_LINE.exec(text);
    if (!match) continue;
    const raw = match[1] ?? '';
    const value = Number(raw);
    const repeated = seen;
    seen = true;
    if (repeated) {
      problem(n, 'a second `weight:` line for the same criterion', 'keep one');
    } else if (raw === '' || !Number.isFinite(value)) {
      problem(n, `weight must be a number, got "${raw}"`, 'write e.g. `weight: 2`');
    } else if (value < 0) {
      problem(n, `weight must be >= 0, got ${raw}`, 'weights scale a criterion; use 0 to ignore it');
    } else {
      weight = value;
    }
  }
  return weight;
}

/** The criterion's checklist items between its heading and the next criterion, outside code fences. */
function readChecklist(lines: readonly string[], headingLine: number, nextLine: number): string[] {
  const items: string[] = [];
  let inFence = false;
  for (let n = headingLine + 1; n < nextLine; n++) {
    const text = lines[n - 1] ?? '';
    if (FENCE.test(text)) inFence = !inFence;
    if (inFence) continue;
    const match = CHECKLIST_ITEM.exec(text);
    if (match) items.push(match[1] as string);
  }
  return items;
}

function findHeadings(lines: readonly string[]): Heading[] {
  const headings: Heading[] = [];
  let inFence = false;
  for (const [i, text] of lines.entries()) {
    if (FENCE.test(text)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const match = ATX_HEADING.exec(text);
    if (match)
      headings.push({ level: (match[1] as string).length, title: (match[2] as string).trim(), line: i + 1 });
  }
  return headings;
}
