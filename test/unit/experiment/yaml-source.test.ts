import { describe, expect, it } from 'vitest';
import { findPathAtOffset, locate, parseYamlSource } from '../../../src/experiment/yaml-source.js';

const TEXT = `name: x
models:
  generator: { provider: sim, temperature: 0.5 }
  judge:
    provider: sim
checks:
  - { type: contains, value: a }
  - type: regex
    value: "b"
`;

describe('parseYamlSource', () => {
  it('parses a good document with no problems', () => {
    const source = parseYamlSource('/e.yaml', TEXT);
    expect(source.usable).toBe(true);
    expect(source.problems).toEqual([]);
    expect(source.data).toMatchObject({ name: 'x', models: { judge: { provider: 'sim' } } });
  });

  it('reports a duplicate key at the second occurrence and stays usable', () => {
    const source = parseYamlSource('/e.yaml', 'a: 1\nb:\n  c: 1\n  c: 2\n');
    expect(source.usable).toBe(true);
    expect(source.problems).toEqual([
      expect.objectContaining({ keyPath: 'b.c', location: { file: '/e.yaml', line: 4, col: 3 } }),
    ]);
    expect(source.problems[0]?.message).toBe('duplicate key `c`');
  });

  it('reports a syntax error with its line and no code frame', () => {
    const source = parseYamlSource('/e.yaml', 'a: 1\nb: [1, 2\nc: 3\n');
    expect(source.usable).toBe(false);
    expect(source.problems[0]?.message).toMatch(/^YAML syntax error: /);
    expect(source.problems[0]?.message).not.toContain('\n');
    expect(source.problems[0]?.location.line).toBeGreaterThanOrEqual(2);
  });

  it('says to quote a bracketed part name in a flow list, where the generic hint would not lead', () => {
    const source = parseYamlSource('/e.yaml', 'prompt:\n  optimise: [system, messages[0]]\n');
    expect(source.usable).toBe(false);
    expect(source.problems[0]).toMatchObject({
      location: { line: 2 },
      hint: expect.stringContaining("optimise: ['messages[0]']"),
    });
    const quoted = parseYamlSource('/e.yaml', "prompt:\n  optimise: [system, 'messages[0]']\n");
    expect(quoted.problems).toEqual([]);
  });
});

describe('locate', () => {
  const source = parseYamlSource('/e.yaml', TEXT);

  it('finds keys in block and flow mappings and items in sequences', () => {
    expect(locate(source, ['name'])).toEqual({ line: 1, col: 1 });
    expect(locate(source, ['models', 'generator', 'temperature'])).toEqual({ line: 3, col: 31 });
    expect(locate(source, ['models', 'judge', 'provider'])).toEqual({ line: 5, col: 5 });
    expect(locate(source, ['checks', 1])).toEqual({ line: 8, col: 5 });
    expect(locate(source, ['checks', 1, 'value'])).toEqual({ line: 9, col: 5 });
  });

  it('stops at the deepest existing ancestor for a missing key', () => {
    expect(locate(source, ['models', 'judge', 'model'])).toEqual({ line: 4, col: 3 });
    expect(locate(source, ['nothing'])).toEqual({ line: 1, col: 1 });
  });

  it('finds the key path of a key at an offset', () => {
    const offset = TEXT.indexOf('provider: sim\n');
    expect(findPathAtOffset(source.doc, offset)).toEqual(['models', 'judge', 'provider']);
  });
});
