import { describe, expect, it } from 'vitest';
import { loadCases } from '../../../../src/experiment/cases/load-cases.js';

// Regression: these ids passed `validate`, then `eval`/`run` crashed writing `outputs/<id>.<sample>.txt`.
describe('case ids that cannot name a file', () => {
  it('case ids `.`, `..` and ids over 200 bytes are validate errors with file:line', () => {
    const long = 'a'.repeat(201);
    const text = `- id: "."\n- id: ".."\n- id: ${long}\n- id: ${'b'.repeat(200)}\n- id: ...\n`;
    const { problems, cases } = loadCases('/x/c.yaml', text);
    expect(
      problems.map((p) => [p.severity, p.keyPath, p.location.file, p.location.line, p.location.col]),
    ).toEqual([
      ['error', '[0].id', '/x/c.yaml', 1, 3],
      ['error', '[1].id', '/x/c.yaml', 2, 3],
      ['error', '[2].id', '/x/c.yaml', 3, 3],
    ]);
    expect(problems[0]?.message).toContain('`.` and `..` name folders');
    expect(problems[2]?.message).toContain('at most 200 characters');
    // 200 bytes and `...` are ordinary file names.
    expect(cases.map((c) => c.id)).toEqual(['b'.repeat(200), '...']);
  });

  it('refuses the same ids in JSONL and CSV, at their own line', () => {
    const jsonl = loadCases('/x/c.jsonl', '{"id": "ok"}\n{"id": ".."}\n');
    expect(jsonl.problems.map((p) => [p.keyPath, p.location.line])).toEqual([['[1].id', 2]]);
    const csv = loadCases('/x/c.csv', `id,topic\nok,x\n.,y\n${'c'.repeat(300)},z\n`);
    expect(csv.problems.map((p) => [p.keyPath, p.location.line])).toEqual([
      ['[1].id', 3],
      ['[2].id', 4],
    ]);
  });

  it('refuses ids with a slash, a NUL or other characters a file name cannot hold', () => {
    for (const id of ['../escape', 'a/b', 'nul\u0000byte', 'back\\slash', 'new\nline', 'colon:star*']) {
      const { problems } = loadCases('/x/c.jsonl', `${JSON.stringify({ id })}\n`);
      expect(
        problems.map((p) => p.keyPath),
        JSON.stringify(id),
      ).toEqual(['[0].id']);
    }
  });
});
