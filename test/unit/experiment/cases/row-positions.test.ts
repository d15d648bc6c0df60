import { describe, expect, it } from 'vitest';
import { loadCases } from '../../../../src/experiment/cases/load-cases.js';

describe('every bad row is reported as itself', () => {
  it('each ragged CSV row is reported at its own line', () => {
    const { problems, cases } = loadCases('/x/c.csv', 'id,topic\na,x\nb\nc,y,extra\nd,z\n');
    expect(problems.map((p) => [p.keyPath, p.location.line, p.message])).toEqual([
      ['[1]', 3, 'row has 1 field(s), the header has 2'],
      ['[2]', 4, 'row has 3 field(s), the header has 2'],
    ]);
    expect(cases.map((c) => [c.id, c.index, c.line])).toEqual([
      ['a', 0, 2],
      ['d', 3, 5],
    ]);
  });

  it('each JSONL line that is not JSON is reported as its own case', () => {
    const { problems } = loadCases('/x/c.jsonl', '{"id":"a"}\n{bad\n\n{"id": "b",}\n{"id": 5}\n');
    expect(problems.map((p) => [p.keyPath, p.location.line])).toEqual([
      ['[1]', 2],
      ['[2]', 4],
      ['[3].id', 5],
    ]);
  });

  it('finds the column of a cell and of a key in a JSONL line', () => {
    const csv = loadCases('/x/c.csv', 'topic,id\n"multi\nline",first\n');
    expect(csv.cases[0]?.locate(['id'])).toEqual({ line: 3, col: 7 });
    expect(csv.cases[0]?.locate(['vars', 'topic'])).toEqual({ line: 2, col: 1 });
    const jsonl = loadCases('/x/c.jsonl', '\n{"id": "a", "vars": {"n": 1.10}}\n');
    expect(jsonl.cases[0]?.locate(['vars', 'n'])).toEqual({ line: 2, col: 22 });
    expect(jsonl.cases[0]?.vars).toEqual({ n: '1.10' });
  });

  it('keeps JSONL numbers as written, whatever else the line holds', () => {
    const line = '{"id": "a", "vars": {"n": 3, "m": 1.10, "e": 1e3, "neg": -0.50, "s": "2.0 \\" 1.10"}}';
    expect(loadCases('/x/c.jsonl', `${line}\n`).cases[0]?.vars).toEqual({
      n: '3',
      m: '1.10',
      e: '1e3',
      neg: '-0.50',
      s: '2.0 " 1.10',
    });
    expect(loadCases('/x/c.jsonl', '{"vars": {"n": 12, "x": -4.5}}\n').cases[0]?.vars).toEqual({
      n: '12',
      x: '-4.5',
    });
  });
});
