/**
 * Text from outside (a judge's stderr, a CLI's error, a model's output) made harmless for a
 * terminal (docs/design/commands-and-exit-codes.md, "Terminal output"). A control character in
 * it would be obeyed, not shown: ESC starts sequences that set the window title, clear the screen
 * or (OSC 52) write the user's clipboard; C1 codes do the same in one byte; a carriage return
 * overwrites the line; bidi overrides make text read differently from how it is. Each becomes a
 * visible `\u001b`-style escape, which also keeps a JSON document valid and equal in value.
 * Newlines and tabs stay.
 */

const ESC = '\u001b';

// C0 but tab and newline, DEL, C1, and the bidi embeddings, overrides, isolates and marks.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// The only sequences the product writes itself (picocolors for the colours used, and a reset):
// bold, dim, strikethrough, red, green, yellow, cyan and their ends. None hides or moves text.
const OWN_SGR = new RegExp(`${ESC}\\[(?:0|1|2|9|22|29|31|32|33|36|39)m`, 'y');

function escapeOf(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every control character but `\n` and `\t` written as an escape; CRLF becomes `\n`. */
export function visibleText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, escapeOf);
}

/**
 * What the terminal writes: visibleText, except that with colour on the product's own colour
 * codes stay codes. One of those arriving from outside can only colour text, never hide it.
 */
export function terminalText(text: string, colour: boolean): string {
  if (!colour || !text.includes(ESC)) return visibleText(text);
  let out = '';
  let start = 0;
  for (let index = text.indexOf(ESC); index !== -1; index = text.indexOf(ESC, index + 1)) {
    OWN_SGR.lastIndex = index;
    const code = OWN_SGR.exec(text);
    if (code === null) continue;
    out += visibleText(text.slice(start, index)) + code[0];
    start = index + code[0].length;
  }
  return out + visibleText(text.slice(start));
}
