/**
 * The loop's prompt for several optimisable parts (docs/design/prompt-shapes.md): the parts document
 * splits back exactly.
 */
import { describe, expect, it } from 'vitest';
import {
  findMarkerLine,
  joinPartTexts,
  optimisedNames,
  type PartTexts,
  partPaths,
  splitPromptText,
} from '../../../src/experiment/part-texts.js';
import type { PromptShape } from '../../../src/experiment/types.js';

describe('parts documents', () => {
  it('is the text itself for one part, so a single-part prompt is what it always was', () => {
    expect(joinPartTexts({ system: 'Be brief.\n' })).toBe('Be brief.\n');
    expect(splitPromptText('Be brief.\n', ['system'])).toEqual({ system: 'Be brief.\n' });
  });

  it('round-trips several parts byte for byte, with or without final newlines and blank lines', () => {
    const cases: PartTexts[] = [
      { system: 'Be brief.\n', 'messages[1]': 'Answer {{q}}.\n' },
      { system: 'No newline', 'messages[1]': '\n\nleading blank lines\n\n\n', 'messages[3]': '' },
      { system: '<!-- keep -->\nRules\n<!-- /keep -->', 'messages[0]': 'x\r\ny\r\n' },
    ];
    for (const texts of cases) {
      const joined = joinPartTexts(texts);
      expect(splitPromptText(joined, Object.keys(texts))).toEqual(texts);
    }
    expect(joinPartTexts({ system: 'A\n', 'messages[1]': 'B\n' })).toBe(
      '<!-- part: system -->\nA\n\n<!-- part: messages[1] -->\nB\n',
    );
  });

  it('refuses a text that is not the parts document of those names', () => {
    expect(() => splitPromptText('plain text', ['system', 'messages[1]'])).toThrow(
      'part `system` is missing',
    );
    expect(() => splitPromptText('<!-- part: system -->\nA', ['system', 'messages[1]'])).toThrow(
      'part `messages[1]` is missing',
    );
  });

  it('finds a marker line inside a part (forbidden there), and nothing in ordinary text', () => {
    expect(findMarkerLine('a\n<!-- part: anything -->\nb')).toBe('<!-- part: anything -->');
    expect(findMarkerLine('a <!-- part: inline --> b\n<!-- keep -->')).toBeUndefined();
  });

  it('names the optimised parts and their files only when there are several', () => {
    const shape: PromptShape = {
      parts: [
        { name: 'system', role: 'system', text: 'S', path: '/x/system.md', optimise: true },
        { name: 'messages[0]', role: 'user', text: 'fixed', optimise: false },
        { name: 'messages[1]', role: 'user', text: 'U', path: '/x/user.md', optimise: true },
      ],
    };
    expect(optimisedNames(shape)).toEqual(['system', 'messages[1]']);
    expect(partPaths(shape)).toEqual({ system: '/x/system.md', 'messages[1]': '/x/user.md' });
    const one = { parts: shape.parts.map((p) => (p.name === 'system' ? p : { ...p, optimise: false })) };
    expect(partPaths(one)).toBeUndefined();
  });
});
