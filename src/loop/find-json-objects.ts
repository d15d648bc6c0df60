/**
 * Top-level JSON objects in a model's reply, wherever they sit: bare, inside a ``` fence, or
 * between sentences of prose. Models often put raw line breaks or tabs inside JSON strings
 * (which JSON forbids); those are escaped before parsing rather than costing a retry. A brace
 * that does not open a parseable object is skipped, so prose like "{{topic}}" is ignored.
 */
import { isRecord } from '../is-record.js';

export function findJsonObjects(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  let at = text.indexOf('{');
  while (at >= 0) {
    const candidate = scanObject(text, at);
    const parsed = candidate === undefined ? undefined : parseObject(candidate.json);
    if (candidate !== undefined && parsed !== undefined) {
      found.push(parsed);
      at = text.indexOf('{', candidate.end + 1);
    } else {
      at = text.indexOf('{', at + 1);
    }
  }
  return found;
}

const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The balanced `{…}` starting at `start`, with control characters inside strings escaped. */
function scanObject(text: string, start: number): { json: string; end: number } | undefined {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let json = '';
  for (let i = start; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      else if (ch < ' ') {
        json += CONTROL_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
        continue;
      }
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return { json: json + ch, end: i };
    }
    json += ch;
  }
  return undefined;
}

function parseObject(json: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
