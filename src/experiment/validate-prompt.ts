/**
 * Validating the prompt's templates against the cases (docs/design/experiment-format.md,
 * docs/design/prompt-shapes.md): every placeholder of every part and of every case message needs a
 * value in its case, keep markers must balance, no git conflict is left in a part, and a var no
 * placeholder uses is probably a typo.
 */
import type { Problem } from '../errors.js';
import type { DraftCase } from './cases/load-cases.js';
import { findConflictMarkers } from './find-conflict-markers.js';
import { extractKeepBlocks, findPlaceholders, lineOf } from './template.js';

const PLACEHOLDER_AT = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** Double braces that are not a placeholder (e.g. `{{ user-name }}`): sent literally. */
const NEAR_PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/** One template of the prompt: a part's file, or inline text at a key of experiment.yaml. */
export interface PromptTemplate {
  /** The part's name: `prompt`, `system`, `messages[i]`. */
  name: string;
  text: string;
  /** The part's own file, or experiment.yaml for inline text. */
  file: string;
  /** Inline text: problems point at its key, as lines inside it are not lines of the file. */
  inline?: { keyPath: string; line: number; col: number };
}

export function validatePrompt(
  templates: readonly PromptTemplate[],
  casesFile: string,
  cases: readonly DraftCase[],
): Problem[] {
  const problems: Problem[] = [];
  for (const template of templates) problems.push(...checkText(template));
  for (const template of templates) problems.push(...checkValues(template, casesFile, cases));
  problems.push(...checkCaseMessages(casesFile, cases));

  const used = new Set(templates.flatMap((t) => findPlaceholders(t.text)));
  for (const c of cases)
    for (const m of c.messages ?? []) for (const name of findPlaceholders(m.content)) used.add(name);
  const firstUse = new Map<string, { c: DraftCase; count: number }>();
  for (const c of cases) {
    for (const name of Object.keys(c.vars)) {
      if (used.has(name)) continue;
      const seen = firstUse.get(name);
      if (seen) seen.count++;
      else firstUse.set(name, { c, count: 1 });
    }
  }
  for (const [name, { c, count }] of firstUse) {
    problems.push({
      severity: 'warning',
      location: { file: casesFile, ...c.locate(['vars', name]) },
      keyPath: `[${c.index}].vars.${name}`,
      message: `var \`${name}\` (in ${count} case${count === 1 ? '' : 's'}) is not used by any placeholder in the prompt`,
      hint: `write {{${name}}} in the prompt, or drop the var`,
    });
  }
  return problems;
}

/** Where a problem on line `line` of the template sits. */
function placeOf(template: PromptTemplate, line: number): Pick<Problem, 'location' | 'keyPath'> {
  const { inline } = template;
  if (inline)
    return { location: { file: template.file, line: inline.line, col: inline.col }, keyPath: inline.keyPath };
  return { location: { file: template.file, line, col: 1 }, keyPath: '' };
}

/** The template on its own: not empty, no merge left in it, keep markers balanced, near-placeholders. */
function checkText(template: PromptTemplate): Problem[] {
  const { text } = template;
  const problems: Problem[] = [];
  if (text.trim() === '') {
    problems.push({
      severity: 'error',
      ...placeOf(template, 1),
      message: template.inline
        ? `\`${template.name}\` is empty`
        : template.name === 'prompt'
          ? 'the prompt file is empty'
          : `the file of \`${template.name}\` is empty`,
      hint: 'write the prompt the generator receives, with {{var}} placeholders for case values',
    });
  }
  for (const block of findConflictMarkers(text)) {
    const [first] = block.lines;
    problems.push({
      severity: 'error',
      ...placeOf(template, first ?? 1),
      message: `git conflict markers on line${block.lines.length === 1 ? '' : 's'} ${block.lines.join(', ')}: the prompt is in the middle of a merge`,
      hint: 'resolve the conflict (keep one side, delete the markers) and commit before running',
    });
  }
  for (const issue of extractKeepBlocks(text).issues) {
    problems.push({
      severity: 'error',
      ...placeOf(template, issue.line),
      message: `unbalanced keep marker: ${issue.message}`,
      hint: 'wrap protected text as <!-- keep -->…<!-- /keep -->',
    });
  }
  for (const match of text.matchAll(NEAR_PLACEHOLDER)) {
    const inner = match[1] as string;
    if (/^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(inner)) continue;
    problems.push({
      severity: 'warning',
      ...placeOf(template, lineOf(text, match.index)),
      message: `\`${match[0]}\` is not a placeholder and is sent as written`,
      hint: 'placeholders are {{name}} with letters, digits and "_" only',
    });
  }
  return problems;
}

/** Every placeholder of the template needs a value in every case. */
function checkValues(template: PromptTemplate, casesFile: string, cases: readonly DraftCase[]): Problem[] {
  const problems: Problem[] = [];
  const where = template.name === 'prompt' ? '' : ` (in \`${template.name}\`)`;
  for (const name of findPlaceholders(template.text)) {
    const missing = cases.filter((c) => !Object.hasOwn(c.vars, name));
    if (missing.length === 0) continue;
    if (missing.length === cases.length && cases.length > 1) {
      problems.push({
        severity: 'error',
        ...placeOf(template, firstPlaceholderLine(template.text, name)),
        message: `{{${name}}}${where} has no value in any of the ${cases.length} cases`,
        hint: `add \`${name}\` to every case's vars, or remove the placeholder`,
      });
      continue;
    }
    for (const c of missing) {
      problems.push({
        severity: 'error',
        location: { file: casesFile, ...c.locate(['vars']) },
        keyPath: `[${c.index}].vars`,
        message: `case \`${c.id}\` has no value for {{${name}}}${where}`,
        hint: `add \`${name}\` to this case's vars`,
      });
    }
  }
  return problems;
}

/** A case's own messages are templates too, filled from the same case's vars. */
function checkCaseMessages(casesFile: string, cases: readonly DraftCase[]): Problem[] {
  const problems: Problem[] = [];
  for (const c of cases) {
    for (const [j, message] of (c.messages ?? []).entries()) {
      const missing = findPlaceholders(message.content).filter((name) => !Object.hasOwn(c.vars, name));
      if (missing.length === 0) continue;
      problems.push({
        severity: 'error',
        location: { file: casesFile, ...c.locate(['messages', j, 'content']) },
        keyPath: `[${c.index}].messages[${j}].content`,
        message: `case \`${c.id}\` has no value for ${missing.map((m) => `{{${m}}}`).join(', ')} in its message ${j}`,
        hint: `add ${missing.map((m) => `\`${m}\``).join(', ')} to this case's vars`,
      });
    }
  }
  return problems;
}

function firstPlaceholderLine(prompt: string, name: string): number {
  for (const match of prompt.matchAll(PLACEHOLDER_AT))
    if (match[1] === name) return lineOf(prompt, match.index);
  return 1;
}
