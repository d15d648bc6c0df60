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

describe('parseYamlSource: aliases and nesting', () => {
  it('refuses an alias inside the node it names, at the alias, instead of building a cycle', () => {
    const text = '- name: lookup\n  parameters: &p\n    type: object\n    properties:\n      x: *p\n';
    const source = parseYamlSource('/tools.yaml', text);
    expect(source.usable).toBe(false);
    expect(source.data).toBeUndefined();
    expect(source.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        keyPath: '[0].parameters.properties.x',
        location: { file: '/tools.yaml', line: 5, col: 10 },
      }),
    ]);
    expect(source.problems[0]?.message).toContain('alias *p points into the node it names');
  });

  it('accepts a PyYAML file that repeats one object through thousands of aliases', () => {
    // What yaml.dump writes for 3,000 labels sharing one scores dict.
    const entries = Array.from({ length: 3000 }, (_, i) =>
      i === 0
        ? '- output: o0\n  scores: &id001\n    clarity: 4\n    relevance: 2\n'
        : `- output: o${i}\n  scores: *id001\n`,
    );
    const source = parseYamlSource('/labels.yaml', entries.join(''));
    expect(source.problems).toEqual([]);
    expect((source.data as unknown[]).length).toBe(3000);
    expect((source.data as { scores: unknown }[])[2999]?.scores).toEqual({ clarity: 4, relevance: 2 });
  });

  it('refuses a billion laughs by its expanded size', () => {
    const lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (let i = 1; i <= 9; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const source = parseYamlSource('/cases.yaml', `${lines.join('\n')}\n`);
    expect(source.usable).toBe(false);
    expect(source.problems).toEqual([
      expect.objectContaining({ severity: 'error', location: { file: '/cases.yaml', line: 1, col: 1 } }),
    ]);
    expect(source.problems[0]?.message).toMatch(/aliases expanded .* over the limit of 64 MiB/);
  });

  it('refuses nesting past the limit at the first level too deep, with its key path', () => {
    const text = `${'{"a":'.repeat(150)}1${'}'.repeat(150)}`;
    const source = parseYamlSource('/schema.json', text);
    expect(source.usable).toBe(false);
    expect(source.problems).toEqual([
      expect.objectContaining({
        keyPath: Array(100).fill('a').join('.'),
        location: expect.objectContaining({ line: 1 }),
      }),
    ]);
    expect(source.problems[0]?.message).toBe(
      'nested more than 100 levels deep (mappings and lists, aliases expanded)',
    );
  });

  it('says the same when the nesting is too deep for the parser itself', () => {
    const source = parseYamlSource('/schema.json', `${'['.repeat(3000)}${']'.repeat(3000)}`);
    expect(source.usable).toBe(false);
    expect(source.problems.map((p) => p.message)).toEqual([
      'nested more than 100 levels deep (mappings and lists, aliases expanded)',
    ]);
  });

  it('counts nesting through aliases', () => {
    const inner = `${'{"a":'.repeat(60)}1${'}'.repeat(60)}`;
    const source = parseYamlSource(
      '/x.yaml',
      `base: &b ${inner}\nmore: ${'{"b":'.repeat(50)}*b${'}'.repeat(50)}\n`,
    );
    expect(source.usable).toBe(false);
    expect(source.problems[0]?.keyPath).toBe(['more', ...Array(50).fill('b')].join('.'));
  });
});
