/**
 * Edits the simulated mutator makes to a prompt, line by line. Lines overlapping a
 * `<!-- keep -->` block are frozen: never edited, never moved relative to each other.
 */
import { findPlaceholders } from '../../../experiment/template.js';
import { parseInstructions, statedFamilies } from '../instructions.js';
import { scopeMatches, scopeOf } from '../scopes.js';
import { capitalise } from '../text.js';

export interface PromptLine {
  text: string;
  frozen: boolean;
}

const KEEP_BLOCK = /<!-- keep -->[\s\S]*?<!-- \/keep -->/g;
const LIST_MARKER = /^\s*(?:\d+[.)]|[-*•])\s+/;

export function toLines(prompt: string): PromptLine[] {
  const frozenRanges = [...prompt.matchAll(KEEP_BLOCK)].map((m) => [m.index, m.index + m[0].length] as const);
  const lines: PromptLine[] = [];
  let offset = 0;
  for (const text of prompt.split('\n')) {
    const start = offset;
    const end = offset + text.length;
    lines.push({ text, frozen: frozenRanges.some(([from, to]) => from <= end && to >= start) });
    offset = end + 1;
  }
  return lines;
}

export function fromLines(lines: PromptLine[]): string {
  return lines.map((line) => line.text).join('\n');
}

/** Index of the first line with text: the task statement, which edits leave in place. */
function taskLine(lines: PromptLine[]): number {
  return lines.findIndex((line) => line.text.trim() !== '');
}

/** Lines (other than the task line) that state at least one instruction family and may be edited. */
export function instructionLines(lines: PromptLine[]): number[] {
  const task = taskLine(lines);
  return lines
    .map((line, i) => ({ line, i }))
    .filter(
      ({ line, i }) => i !== task && !line.frozen && statedFamilies(parseInstructions(line.text)).size > 0,
    )
    .map(({ i }) => i);
}

export function appendLine(prompt: string, text: string): string {
  const trailing = /\n*$/.exec(prompt)?.[0] ?? '';
  return `${prompt.slice(0, prompt.length - trailing.length)}\n${text}${trailing}`;
}

/**
 * A line scoped to one kind goes at the end of the paragraph that already speaks of that kind
 * ("For setup requests: …"), else at the end: lines for different kinds land in different
 * places, so two lineages that each scoped a rule to their kind merge without overlapping.
 */
export function insertForKind(prompt: string, kind: string, text: string): string {
  const lines = toLines(prompt);
  const own = lines
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => {
      const scope = scopeOf(line.text);
      return scope !== undefined && scopeMatches(scope.scope, kind);
    });
  const last = own.at(-1);
  if (last === undefined) return appendLine(prompt, text);
  let end = last.i;
  while (end + 1 < lines.length && lines[end + 1]?.text.trim() !== '' && !lines[end + 1]?.frozen) end++;
  lines.splice(end + 1, 0, { text, frozen: false });
  return fromLines(lines);
}

export function replaceLine(prompt: string, index: number, text: string): string {
  const lines = toLines(prompt);
  const line = lines[index];
  if (!line || line.frozen) return prompt;
  const marker = LIST_MARKER.exec(line.text)?.[0] ?? '';
  lines[index] = { text: `${marker}${text}`, frozen: false };
  return fromLines(lines);
}

export function removeLine(prompt: string, index: number): string {
  const lines = toLines(prompt);
  if (lines[index]?.frozen !== false) return prompt;
  lines.splice(index, 1);
  return fromLines(lines).replace(/\n{3,}/g, '\n\n');
}

function asSentence(text: string): string {
  const bare = capitalise(
    text
      .replace(LIST_MARKER, '')
      .replace(/^(?:important|note|rule):\s*/i, '')
      .trim(),
  );
  return /[.!?]$/.test(bare) ? bare : `${bare}.`;
}

/**
 * Bold restructuring: pull every editable instruction line out of the prose and restate them,
 * plus the new one, as firm rules — a numbered list or a single "Important:" paragraph.
 */
export function restructure(prompt: string, extra: string | undefined, style: 'list' | 'paragraph'): string {
  const lines = toLines(prompt);
  const moved = new Set(instructionLines(lines));
  const rules = [...moved].map((i) => asSentence(lines[i]?.text ?? ''));
  if (extra !== undefined) rules.push(asSentence(extra));
  if (rules.length === 0) return prompt;
  const rest = fromLines(lines.filter((_, i) => !moved.has(i)))
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
  const block =
    style === 'list'
      ? `Follow these rules strictly:\n${rules.map((rule, i) => `${i + 1}. ${rule}`).join('\n')}`
      : `Important: ${rules.join(' ')}`;
  return `${rest}\n\n${block}\n`;
}

/** Whether a proposed prompt keeps every placeholder and keep block and fits the length budget. */
export function isValidEdit(
  candidate: string,
  incumbent: string,
  keepBlocks: string[],
  placeholders: string[],
  maxChars: number,
): boolean {
  if (candidate === incumbent || candidate.trim() === '' || candidate.length > maxChars) return false;
  const present = new Set(findPlaceholders(candidate));
  if (!placeholders.every((name) => present.has(name))) return false;
  return keepBlocks.every((block) =>
    candidate.includes(block.startsWith('<!-- keep -->') ? block : `<!-- keep -->${block}<!-- /keep -->`),
  );
}
