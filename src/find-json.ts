/**
 * The JSON embedded in free text: every balanced `{…}` or `[…]` span that parses, left to
 * right, skipping a span that does not parse but looking again inside it (so prose like
 * "{{topic}}" is passed over). Two readings share the scanner:
 * - `findJsonValues`: strict JSON (no comments, no trailing commas, no raw line breaks in
 *   strings), objects and lists, ```json fence bodies first; with `objectsOnly` (the
 *   `contains-json` check, as promptfoo reads it) only objects, so a bare `[1, 2, 3]` is
 *   not JSON found but the objects inside a list are.
 * - `findJsonObjects`, for model replies asked for one object (the mutator's proposal, the
 *   built-in judge and grader): objects only, and raw line breaks or tabs inside strings
 *   (which models write and JSON forbids) are escaped rather than costing a retry.
 */
import { isRecord } from './is-record.js';

const FENCE = /```[ \t]*(?:json5?|JSON)?[ \t]*\r?\n([\s\S]*?)```/g;

// Caps the bracket scanning so a megabyte of unmatched braces cannot take quadratic time.
const SCAN_BUDGET_PER_CHAR = 10;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

interface ScanOptions {
  objectsOnly: boolean;
  tolerateControlCharacters: boolean;
}

export function findJsonValues(text: string, options: { objectsOnly?: boolean } = {}): unknown[] {
  const objectsOnly = options.objectsOnly ?? false;
  const values: unknown[] = [];
  for (const match of text.matchAll(FENCE)) {
    const parsed = tryParse(match[1] ?? '');
    if (parsed.ok && (!objectsOnly || isRecord(parsed.value))) values.push(parsed.value);
  }
  values.push(...scanJson(text, { objectsOnly, tolerateControlCharacters: false }));
  return values;
}

export function findJsonObjects(text: string): Record<string, unknown>[] {
  return scanJson(text, { objectsOnly: true, tolerateControlCharacters: true }).filter(isRecord);
}

function scanJson(text: string, options: ScanOptions): unknown[] {
  const values: unknown[] = [];
  const budget = { left: text.length * SCAN_BUDGET_PER_CHAR + 100_000 };
  for (let i = 0; i < text.length && budget.left > 0; i++) {
    const code = text.charCodeAt(i);
    if (code !== OPEN_BRACE && (options.objectsOnly || code !== OPEN_BRACKET)) continue;
    const close = findClose(text, i, budget);
    if (close === -1) continue;
    const span = text.slice(i, close + 1);
    const parsed = tryParse(options.tolerateControlCharacters ? escapeControlCharacters(span) : span);
    if (parsed.ok) {
      values.push(parsed.value);
      i = close;
    }
  }
  return values;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Where the bracket opened at `start` closes (string-aware), or -1; `budget.left` shrinks by the characters scanned. */
function findClose(text: string, start: number, budget: { left: number }): number {
  // The expected closers as char codes; a typed array because megabyte scans must not allocate per character.
  let stack = new Uint8Array(64);
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    if (--budget.left < 0) return -1;
    const code = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === BACKSLASH) escaped = true;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === stack.length) {
        const grown = new Uint8Array(stack.length * 2);
        grown.set(stack);
        stack = grown;
      }
      stack[depth++] = code === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (depth === 0 || stack[--depth] !== code) return -1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The span with raw control characters inside its strings written as escapes. */
function escapeControlCharacters(span: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < span.length; i++) {
    const code = span.charCodeAt(i);
    if (!inString) {
      if (code === QUOTE) inString = true;
    } else if (escaped) escaped = false;
    else if (code === BACKSLASH) escaped = true;
    else if (code === QUOTE) inString = false;
    else if (code < SPACE) {
      const ch = span[i] as string;
      out += span.slice(from, i) + (CONTROL_ESCAPES[ch] ?? `\\u${code.toString(16).padStart(4, '0')}`);
      from = i + 1;
    }
  }
  return from === 0 ? span : out + span.slice(from);
}
