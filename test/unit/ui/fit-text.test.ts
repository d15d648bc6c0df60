import { describe, expect, it } from 'vitest';
import { cutVisible, fitLines, formatField, visibleWidth, wrapWords } from '../../../src/ui/fit-text.js';

const ESC = '\u001b';
const longest = (text: string) => Math.max(...text.split('\n').map(visibleWidth));

describe('visibleWidth', () => {
  it('counts code points and leaves colour codes out', () => {
    expect(visibleWidth(`${ESC}[33mab…${ESC}[39m`)).toBe(3);
    expect(visibleWidth('é😀')).toBe(2);
  });
});

describe('wrapWords', () => {
  const prose = 'yes: the sim provider produced these results; they say nothing about real models';

  it('breaks between words only, indenting the lines after the first', () => {
    const text = wrapWords(prose, 30, 2);
    expect(longest(text)).toBeLessThanOrEqual(30);
    expect(
      text
        .split('\n')
        .slice(1)
        .every((line) => line.startsWith('  ') && line[2] !== ' '),
    ).toBe(true);
    expect(text.replace(/\n +/g, ' ')).toBe(prose);
  });

  it('keeps a line whole when it fits, runs of spaces included', () => {
    expect(wrapWords('train 0.5   holdout 0.6', 80)).toBe('train 0.5   holdout 0.6');
    expect(wrapWords('a b', Number.POSITIVE_INFINITY)).toBe('a b');
  });

  it('cuts a word longer than a whole line, with an ellipsis', () => {
    expect(wrapWords('see /a/very/long/path/indeed', 12)).toBe('see\n/a/very/lon…');
  });

  it('measures coloured text by what shows', () => {
    const text = wrapWords(`${ESC}[33m${prose}${ESC}[39m`, 40);
    expect(longest(text)).toBeLessThanOrEqual(40);
    expect(text.split('\n')).toHaveLength(3);
  });
});

describe('formatField', () => {
  it('wraps the value under its own column', () => {
    expect(formatField('Simulated   ', 'generator: these figures say nothing about real models', 40)).toBe(
      'Simulated   generator: these figures say\n            nothing about real models',
    );
  });

  it('puts a value with a word too long for its column on the lines below the label', () => {
    const path = '/tmp/runs/20261201-1045-cold-email-8ytr/report.html';
    expect(formatField('  report                ', path, 60)).toBe(`  report\n    ${path}`);
  });
});

describe('cutVisible and fitLines', () => {
  it('cut only what is too long, each line on its own', () => {
    expect(fitLines(['abcdef', 'abc'], 4)).toBe('abc…\nabc');
    expect(cutVisible('abc', 0)).toBe('');
  });
});
