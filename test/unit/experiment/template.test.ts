import { describe, expect, it } from 'vitest';
import {
  MissingVarsError,
  extractKeepBlocks,
  findPlaceholders,
  renderTemplate,
} from '../../../src/experiment/template.js';

describe('renderTemplate', () => {
  it('inserts values verbatim, with no HTML escaping', () => {
    expect(renderTemplate('Say: {{x}}', { x: `<b>&"'</b>` })).toBe(`Say: <b>&"'</b>`);
  });

  it('accepts spaces inside the braces', () => {
    expect(renderTemplate('{{ x }}|{{x   }}|{{   x}}', { x: 'v' })).toBe('v|v|v');
  });

  it('leaves single braces and {x} literal', () => {
    expect(renderTemplate('{x} { x } {"json": 1} {{x}}', { x: 'v' })).toBe('{x} { x } {"json": 1} v');
  });

  it('treats {{{x}}} as a placeholder inside literal braces', () => {
    expect(renderTemplate('{{{x}}}', { x: 'v' })).toBe('{v}');
  });

  it('leaves double braces around a non-identifier literal', () => {
    expect(renderTemplate('{{not a var}} {{a-b}} {{1x}}', {})).toBe('{{not a var}} {{a-b}} {{1x}}');
  });

  it('never expands a value that itself contains a placeholder', () => {
    expect(renderTemplate('{{a}} {{b}}', { a: '{{b}}', b: 'B' })).toBe('{{b}} B');
  });

  it('keeps $ sequences in values literally', () => {
    expect(renderTemplate('{{x}}', { x: "$& $1 $$ $'" })).toBe("$& $1 $$ $'");
  });

  it('names every missing var at once', () => {
    const attempt = () => renderTemplate('{{a}} {{b}} {{a}} {{c}}', { b: '' });
    expect(attempt).toThrow(MissingVarsError);
    try {
      attempt();
    } catch (error) {
      expect((error as MissingVarsError).missing).toEqual(['a', 'c']);
      expect((error as Error).message).toContain('{{a}}');
    }
  });

  it('drops keep markers from the rendered prompt but keeps the text between them', () => {
    expect(renderTemplate('A <!-- keep -->B<!-- /keep --> C', {})).toBe('A B C');
  });
});

describe('findPlaceholders', () => {
  it('lists names once, in order of first appearance', () => {
    expect(findPlaceholders('{{b}} {{ a }} {{b}} {x} {{a-b}}')).toEqual(['b', 'a']);
  });
});

describe('extractKeepBlocks', () => {
  it('returns balanced blocks and no issues', () => {
    const result = extractKeepBlocks('x <!-- keep -->one<!-- /keep --> y <!-- keep -->two<!-- /keep -->');
    expect(result.blocks).toEqual(['one', 'two']);
    expect(result.issues).toEqual([]);
    expect(result.problems).toEqual([]);
  });

  it('reports unclosed, stray and nested markers with their lines', () => {
    const text = 'a\n<!-- /keep -->\n<!-- keep -->\n<!-- keep -->\n';
    const result = extractKeepBlocks(text);
    expect(result.issues.map((i) => i.line)).toEqual([2, 4, 3]);
    expect(result.problems[0]).toMatch(/^line 2: /);
    expect(result.issues[2]?.message).toContain('never closed');
  });
});
