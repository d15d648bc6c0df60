import { describe, expect, it } from 'vitest';
import { generateCaseId } from '../../../../src/experiment/cases/case-id.js';
import { type DraftCase, loadCases } from '../../../../src/experiment/cases/load-cases.js';

/** The same four cases written in each format. */
const YAML = `- id: saas
  vars: { topic: "Billing, usage-based", audience: CTO }
  split: holdout
- vars:
    topic: 'Quotes "inside"'
    audience: |-
      two
      lines
- id: numbers
  vars: { topic: 1.10, audience: 42 }
  split: train
- vars: { topic: "", audience: "x" }
  split: test
`;
const JSONL = `{"id": "saas", "vars": {"topic": "Billing, usage-based", "audience": "CTO"}, "split": "holdout"}
{"vars": {"topic": "Quotes \\"inside\\"", "audience": "two\\nlines"}}

{"id": "numbers", "vars": {"topic": 1.10, "audience": 42}, "split": "train"}
{"vars": {"topic": "", "audience": "x"}, "split": "test"}
`;
const CSV = `id,topic,audience,split\r
saas,"Billing, usage-based",CTO,holdout\r
,"Quotes ""inside""","two
lines",\r
numbers,1.10,42,train\r
,,x,test\r
`;

const essence = (cases: DraftCase[]) =>
  cases.map(({ id, idGenerated, vars, checks, expectations, label }) => ({
    id,
    idGenerated,
    vars,
    checks,
    expectations,
    label,
  }));

describe('loadCases round trip', () => {
  const fromYaml = loadCases('/x/cases.yaml', YAML);
  const fromJsonl = loadCases('/x/cases.jsonl', JSONL);
  const fromCsv = loadCases('/x/cases.csv', CSV);

  it('loads every format without problems', () => {
    expect(fromYaml.problems).toEqual([]);
    expect(fromJsonl.problems).toEqual([]);
    expect(fromCsv.problems).toEqual([]);
  });

  it('gives the same cases from YAML, JSONL and CSV', () => {
    expect(essence(fromJsonl.cases)).toEqual(essence(fromYaml.cases));
    expect(essence(fromCsv.cases)).toEqual(essence(fromYaml.cases));
  });

  it('reads `split` labels, `test` included, in every format', () => {
    for (const loaded of [fromYaml, fromJsonl, fromCsv])
      expect(loaded.cases.map((c) => c.label)).toEqual(['holdout', undefined, 'train', 'test']);
  });

  it('keeps vars as the template will see them, numbers as written', () => {
    expect(fromYaml.cases[1]?.vars).toEqual({ topic: 'Quotes "inside"', audience: 'two\nlines' });
    expect(fromYaml.cases[2]?.vars).toEqual({ topic: '1.10', audience: '42' });
    expect(fromYaml.cases[3]?.vars).toEqual({ topic: '', audience: 'x' });
  });

  it('generates case-<8 hex of sha256(vars)> ids, equal across formats', () => {
    const generated = fromYaml.cases[1];
    expect(generated?.idGenerated).toBe(true);
    expect(generated?.id).toMatch(/^case-[0-9a-f]{8}$/);
    expect(generated?.id).toBe(generateCaseId({ audience: 'two\nlines', topic: 'Quotes "inside"' }));
  });

  it('remembers the line each case starts on', () => {
    expect(fromYaml.cases.map((c) => c.line)).toEqual([1, 4, 9, 12]);
    expect(fromJsonl.cases.map((c) => c.line)).toEqual([1, 2, 4, 5]);
    expect(fromCsv.cases.map((c) => c.line)).toEqual([2, 3, 5, 6]);
  });

  it('points at keys inside a case', () => {
    expect(fromYaml.cases[0]?.locate(['vars', 'audience'])).toEqual({ line: 2, col: 42 });
    expect(fromJsonl.cases[2]?.locate(['split'])).toMatchObject({ line: 4 });
    expect(fromCsv.cases[0]?.locate(['split'])).toEqual({ line: 2, col: 33 });
  });
});

describe('generateCaseId', () => {
  it('ignores key order', () => {
    expect(generateCaseId({ a: '1', b: '2' })).toBe(generateCaseId({ b: '2', a: '1' }));
    expect(generateCaseId({ a: '1' })).not.toBe(generateCaseId({ a: '2' }));
  });
});

describe('loadCases problems', () => {
  it('refuses duplicate ids at the second one', () => {
    const { problems } = loadCases('/x/c.yaml', '- id: a\n  vars: {}\n- id: b\n- id: a\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ keyPath: '[2].id', location: { line: 4, col: 3 } });
    expect(problems[0]?.message).toContain('first used on line 1');
  });

  it('explains colliding generated ids', () => {
    const { problems } = loadCases('/x/c.jsonl', '{"vars":{"a":"1"}}\n{"vars":{"a":"1"}}\n');
    expect(problems[0]?.hint).toContain('same vars');
    expect(problems[0]?.location.line).toBe(2);
  });

  it('refuses an empty file or an empty list', () => {
    for (const [file, text] of [
      ['/x/c.yaml', ''],
      ['/x/c.yaml', '[]\n'],
      ['/x/c.jsonl', '\n\n'],
      ['/x/c.csv', 'id,topic\n'],
    ] as const) {
      const { problems, cases } = loadCases(file, text);
      expect(cases).toEqual([]);
      expect(problems.map((p) => p.message)).toEqual(['no cases: the cases file is empty']);
    }
  });

  it('validates each case and keeps the good ones', () => {
    const { problems, cases } = loadCases(
      '/x/c.yaml',
      '- id: ok\n  vars: { t: x }\n- id: "no good"\n- id: fine\n  vars: { t: [1] }\n',
    );
    expect(cases.map((c) => c.id)).toEqual(['ok']);
    expect(problems.map((p) => [p.keyPath, p.location.line])).toEqual([
      ['[1].id', 3],
      ['[2].vars.t', 5],
    ]);
  });

  it('names the JSONL line that is not JSON and goes on', () => {
    const { problems, cases } = loadCases('/x/c.jsonl', '{"id":"a"}\n{"id": "b",}\n{"id":"c"}\n');
    expect(cases.map((c) => c.id)).toEqual(['a', 'c']);
    expect(problems[0]?.location.line).toBe(2);
  });

  it('refuses expectations and checks columns in CSV', () => {
    const { problems } = loadCases('/x/c.csv', 'topic,checks\nx,y\n');
    expect(problems[0]?.message).toContain('`checks`');
    expect(problems[0]?.hint).toContain('.yaml or .jsonl');
  });

  it('refuses a CSV row with the wrong number of fields', () => {
    const { problems } = loadCases('/x/c.csv', 'a,b\n1,2\n1\n');
    expect(problems[0]).toMatchObject({ location: { line: 3 } });
  });

  it('reads per-case checks and expectations from YAML', () => {
    const { cases } = loadCases(
      '/x/c.yaml',
      '- id: a\n  vars: { t: x }\n  checks: [{ type: icontains, value: x }]\n  expectations: [Says x]\n',
    );
    expect(cases[0]?.checks).toEqual([{ type: 'icontains', value: 'x' }]);
    expect(cases[0]?.expectations).toEqual(['Says x']);
  });
});
