/**
 * The JSON values embedded in free text, for `contains-json`: the bodies of ```json fences
 * first, then every balanced `{…}` or `[…]` span that parses, left to right. Parsing is
 * strict JSON (no comments, no trailing commas).
 */

const FENCE = /```[ \t]*(?:json5?|JSON)?[ \t]*\r?\n([\s\S]*?)```/g;

// Caps the bracket scanning so a megabyte of unmatched braces cannot take quadratic time.
const SCAN_BUDGET_PER_CHAR = 10;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

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

export function findJsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  for (const match of text.matchAll(FENCE)) {
    const parsed = tryParse(match[1] ?? '');
    if (parsed.ok) values.push(parsed.value);
  }
  const budget = { left: text.length * SCAN_BUDGET_PER_CHAR + 100_000 };
  for (let i = 0; i < text.length && budget.left > 0; i++) {
    const code = text.charCodeAt(i);
    if (code !== OPEN_BRACE && code !== OPEN_BRACKET) continue;
    const close = findClose(text, i, budget);
    if (close === -1) continue;
    const parsed = tryParse(text.slice(i, close + 1));
    if (parsed.ok) {
      values.push(parsed.value);
      i = close;
    }
  }
  return values;
}
