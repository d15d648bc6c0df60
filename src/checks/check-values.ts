/** Reading the loosely typed `value` of a check entry the way promptfoo reads it. */

/** Kept under the name the checks use. */
export { isRecord as isPlainObject } from '../is-record.js';

/** A string or a number (numbers match their decimal text); undefined for anything else. */
export function readText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * A list of strings: a YAML list of strings/numbers, or one comma-separated string where
 * double quotes protect commas (`"1,000", in stock`). Undefined when the shape is wrong.
 */
export function readList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return splitCommaSeparated(value);
  if (!Array.isArray(value)) return undefined;
  const items: string[] = [];
  for (const item of value) {
    const text = readText(item);
    if (text === undefined) return undefined;
    items.push(text);
  }
  return items;
}

export function splitCommaSeparated(text: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      // A doubled quote inside quotes is a literal quote, as in CSV.
      if (quoted && text[i + 1] === '"') {
        current += '"';
        i++;
      } else {
        quoted = !quoted;
      }
    } else if (char === ',' && !quoted) {
      items.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** A value shortened for names and reasons: one line, at most `max` characters. */
export function shorten(text: string, max = 40): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

export function quote(text: string, max = 60): string {
  return JSON.stringify(shorten(text, max));
}
