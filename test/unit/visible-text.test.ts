/**
 * Control characters from outside shown, not obeyed (visible-text.ts): ESC, BEL, C1, DEL, a lone
 * carriage return and bidi overrides become `\u00xx` escapes; newlines and tabs stay; with colour
 * on, only the product's own colour codes pass as codes.
 */
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { terminalText, visibleText } from '../../src/visible-text.js';

const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J';
const CLIPBOARD = '\u001b]52;c;cm0gLXJmIH4=\u0007';

/** Any character the terminal would act on rather than show (tab and newline aside). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('visibleText', () => {
  it('writes ESC, BEL and the sequences they make (title, clear screen, OSC 52) as escapes', () => {
    const shown = visibleText(`a ${TITLE} b ${CLEAR} c ${CLIPBOARD} d`);
    expect(shown).toBe('a \\u001b]0;pwned\\u0007 b \\u001b[2J c \\u001b]52;c;cm0gLXJmIH4=\\u0007 d');
    expect(shown).not.toMatch(RAW_CONTROL);
  });

  it('escapes the rest of C0, DEL, C1 (a one-byte CSI) and the bidi controls', () => {
    const every = [
      ...Array.from({ length: 32 }, (_, i) => i).filter((i) => i !== 9 && i !== 10),
      0x7f,
      ...Array.from({ length: 32 }, (_, i) => 0x80 + i),
      0x061c,
      0x200e,
      0x200f,
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
    ].map((code) => String.fromCharCode(code));
    for (const ch of every) {
      const shown = visibleText(`x${ch}y`);
      expect(shown).toBe(`x\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}y`);
    }
    expect(visibleText('\u202egnp.exe')).toBe('\\u202egnp.exe');
  });

  it('keeps newlines, tabs and ordinary text, accents and emoji included; CRLF becomes a newline', () => {
    expect(visibleText('line 1\r\n\tline 2\nnaïve 日本 🚀')).toBe('line 1\n\tline 2\nnaïve 日本 🚀');
    expect(visibleText('100%\rdone')).toBe('100%\\u000ddone');
  });

  it('keeps a JSON document valid and equal in value', () => {
    const json = JSON.stringify({ text: 'del\u007f c1\u009b bidi\u202e esc\u001b' });
    expect(JSON.parse(visibleText(json))).toEqual(JSON.parse(json));
  });
});

describe('terminalText', () => {
  const c = pc.createColors(true);

  it('keeps the product’s own colours when colour is on', () => {
    const own = `${c.red('error')}: ${c.bold(c.green('ok'))} ${c.dim('…')} ${c.yellow('!')} ${c.cyan('@@')} ${c.red(c.strikethrough('x'))}\u001b[0m`;
    expect(terminalText(own, true)).toBe(own);
  });

  it('escapes every other sequence even with colour on, inside coloured text too', () => {
    const shown = terminalText(
      `${c.red(`judge: ${TITLE}${CLEAR}`)} ${CLIPBOARD} \u001b[8mhidden\u001b[1A`,
      true,
    );
    expect(shown).toBe(
      `${c.red('judge: \\u001b]0;pwned\\u0007\\u001b[2J')} \\u001b]52;c;cm0gLXJmIH4=\\u0007 \\u001b[8mhidden\\u001b[1A`,
    );
  });

  it('escapes colour codes too when colour is off: a pipe gets no ESC at all', () => {
    expect(terminalText('\u001b[31mred\u001b[39m', false)).toBe('\\u001b[31mred\\u001b[39m');
  });
});
