/**
 * Fitting text to a terminal's width. A line longer than the terminal is wrapped by the
 * terminal itself, mid-word, and a one-line erase then leaves its remnants behind; so tables
 * cut their lines (with an ellipsis) and prose wraps between words. Widths are counted in
 * code points with colour codes left out; colour codes are kept intact.
 */
import { stripVTControlCharacters } from 'node:util';
import { countChars, ELLIPSIS } from '../loop/text.js';

const ESC = String.fromCharCode(27);
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'y');

/** Columns `text` takes on screen: colour codes take none. */
export function visibleWidth(text: string): number {
  return countChars(stripVTControlCharacters(text));
}

/** `text` cut to `max` visible characters, ending with an ellipsis (and a colour reset) when cut. */
export function cutVisible(text: string, max: number): string {
  if (visibleWidth(text) <= max) return text;
  if (max <= 0) return '';
  let visible = 0;
  let out = '';
  let index = 0;
  let coloured = false;
  while (index < text.length && visible < max - 1) {
    SGR.lastIndex = index;
    const code = SGR.exec(text);
    if (code) {
      out += code[0];
      coloured = true;
      index += code[0].length;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(index) as number);
    out += ch;
    visible += 1;
    index += ch.length;
  }
  return `${out}${ELLIPSIS}${coloured ? `${ESC}[0m` : ''}`;
}

/** Each line cut to `width`: for tables and frames, whose rows must stay one line each. */
export function fitLines(lines: readonly string[], width: number): string {
  return lines.map((line) => cutVisible(line, width)).join('\n');
}

/**
 * `text` (one paragraph) broken between words into lines of at most `width` columns; lines
 * after the first start with `indent` spaces. A single word too long for a line is cut. Runs
 * of spaces inside a line are kept (aligned figures stay aligned).
 */
export function wrapWords(text: string, width: number, indent = 0): string {
  const lead = ' '.repeat(indent);
  return breakWords(text, width, width - indent)
    .map((line, index) => (index === 0 ? line : lead + line))
    .join('\n');
}

/**
 * A labelled line (`label` already padded to its column) whose value wraps under the value
 * column. When a word of the value (a long path) does not fit there, the value goes on the
 * lines below the label, indented by `fallbackIndent`, where it has nearly the whole width.
 */
export function formatField(label: string, value: string, width: number, fallbackIndent = 4): string {
  const column = visibleWidth(label);
  const longest = Math.max(0, ...stripVTControlCharacters(value).split(/\s+/).map(countChars));
  if (longest <= width - column) {
    const lead = ' '.repeat(column);
    return breakWords(value, width - column, width - column)
      .map((line, index) => (index === 0 ? label : lead) + line)
      .join('\n');
  }
  return `${label.trimEnd()}\n${' '.repeat(fallbackIndent)}${wrapWords(value, width - fallbackIndent, fallbackIndent)}`;
}

function breakWords(text: string, firstRoom: number, room: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.match(/\S+\s*/g) ?? []) {
    const limit = lines.length === 0 ? firstRoom : room;
    if (line !== '' && visibleWidth(line + word.trimEnd()) > limit) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += word;
  }
  lines.push(line.trimEnd());
  return lines.map((l, index) => cutVisible(l, index === 0 ? firstRoom : room));
}
