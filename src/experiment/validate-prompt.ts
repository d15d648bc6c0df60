/**
 * Validating the prompt template against the cases (SPEC 3): every placeholder needs a value
 * in every case, keep markers must balance, no git conflict is left in it, and a var no
 * placeholder uses is probably a typo.
 */
import type { Problem } from '../errors.js';
import type { DraftCase } from './cases/load-cases.js';
import { findConflictMarkers } from './find-conflict-markers.js';
import { extractKeepBlocks, findPlaceholders, lineOf } from './template.js';

const PLACEHOLDER_AT = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** Double braces that are not a placeholder (e.g. `{{ user-name }}`): sent literally. */
const NEAR_PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export function validatePrompt(
  promptFile: string,
  prompt: string,
  casesFile: string,
  cases: readonly DraftCase[],
): Problem[] {
  const problems: Problem[] = [];
  if (prompt.trim() === '') {
    problems.push({
      severity: 'error',
      location: { file: promptFile, line: 1, col: 1 },
      keyPath: '',
      message: 'the prompt file is empty',
      hint: 'write the prompt the generator receives, with {{var}} placeholders for case values',
    });
  }
  for (const block of findConflictMarkers(prompt)) {
    const [first] = block.lines;
    problems.push({
      severity: 'error',
      location: { file: promptFile, line: first ?? 1, col: 1 },
      keyPath: '',
      message: `git conflict markers on line${block.lines.length === 1 ? '' : 's'} ${block.lines.join(', ')}: the prompt is in the middle of a merge`,
      hint: 'resolve the conflict (keep one side, delete the markers) and commit before running',
    });
  }
  for (const issue of extractKeepBlocks(prompt).issues) {
    problems.push({
      severity: 'error',
      location: { file: promptFile, line: issue.line, col: 1 },
      keyPath: '',
      message: `unbalanced keep marker: ${issue.message}`,
      hint: 'wrap protected text as <!-- keep -->…<!-- /keep -->',
    });
  }
  for (const match of prompt.matchAll(NEAR_PLACEHOLDER)) {
    const inner = match[1] as string;
    if (/^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(inner)) continue;
    problems.push({
      severity: 'warning',
      location: { file: promptFile, line: lineOf(prompt, match.index), col: 1 },
      keyPath: '',
      message: `\`${match[0]}\` is not a placeholder and is sent as written`,
      hint: 'placeholders are {{name}} with letters, digits and "_" only',
    });
  }

  const placeholders = findPlaceholders(prompt);
  for (const name of placeholders) {
    const missing = cases.filter((c) => !Object.hasOwn(c.vars, name));
    if (missing.length === 0) continue;
    if (missing.length === cases.length && cases.length > 1) {
      problems.push({
        severity: 'error',
        location: { file: promptFile, line: firstPlaceholderLine(prompt, name), col: 1 },
        keyPath: '',
        message: `{{${name}}} has no value in any of the ${cases.length} cases`,
        hint: `add \`${name}\` to every case's vars, or remove the placeholder`,
      });
      continue;
    }
    for (const c of missing) {
      const at = c.locate(['vars']);
      problems.push({
        severity: 'error',
        location: { file: casesFile, ...at },
        keyPath: `[${c.index}].vars`,
        message: `case \`${c.id}\` has no value for {{${name}}}`,
        hint: `add \`${name}\` to this case's vars`,
      });
    }
  }

  const used = new Set(placeholders);
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

function firstPlaceholderLine(prompt: string, name: string): number {
  for (const match of prompt.matchAll(PLACEHOLDER_AT))
    if (match[1] === name) return lineOf(prompt, match.index);
  return 1;
}
