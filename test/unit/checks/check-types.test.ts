import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../src/checks/run-checks.js';
import type { CheckEntry } from '../../../src/experiment/schema.js';

async function judge(entry: CheckEntry, output: string, vars: Record<string, string> = {}) {
  const [outcome] = await runChecks({ output, vars, checks: [entry], baseDir: process.cwd(), env: {} });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

interface Row {
  entry: CheckEntry;
  pass: string;
  fail: string;
}

// One passing and one failing output per type; javascript files and commands are covered by the integration suites.
const ROWS: Row[] = [
  { entry: { type: 'equals', value: 'Yes' }, pass: 'Yes', fail: 'Yes ' },
  { entry: { type: 'equals', value: { a: [1, 2] } }, pass: '{ "a": [1, 2] }', fail: '{"a":[2,1]}' },
  { entry: { type: 'equals', value: 42 }, pass: '42', fail: '42.0' },
  { entry: { type: 'contains', value: 'billing' }, pass: 'usage billing model', fail: 'usage Billing model' },
  { entry: { type: 'icontains', value: 'BILLING' }, pass: 'usage Billing model', fail: 'usage bill model' },
  {
    entry: { type: 'contains-any', value: ['synergy', 'leverage'] },
    pass: 'we leverage it',
    fail: 'we use it',
  },
  { entry: { type: 'contains-any', value: 'synergy, leverage' }, pass: 'pure synergy', fail: 'Synergy' },
  { entry: { type: 'contains-all', value: ['a1', 'b2'] }, pass: 'b2 then a1', fail: 'only a1' },
  { entry: { type: 'icontains-any', value: ['SYNERGY'] }, pass: 'Synergy!', fail: 'none' },
  { entry: { type: 'icontains-all', value: 'Alpha, BETA' }, pass: 'alpha and beta', fail: 'alpha only' },
  { entry: { type: 'starts-with', value: 'Subject:' }, pass: 'Subject: hi\nBody', fail: ' Subject: hi' },
  { entry: { type: 'regex', value: '^Subject: .{3,}$' }, pass: 'Subject: abc', fail: 'Subject: ab' },
  { entry: { type: 'is-json' }, pass: ' {"a": 1} ', fail: '{"a": 1,}' },
  {
    entry: { type: 'is-json', value: { type: 'object', required: ['lat'] } },
    pass: '{"lat": 1}',
    fail: '{"lon": 1}',
  },
  { entry: { type: 'contains-json' }, pass: 'Here: {"a": {"b": [1]}} done', fail: 'Here: {a: 1} done' },
  {
    entry: { type: 'contains-json', value: { type: 'object', required: ['items'] } },
    pass: 'Result:\n```json\n{"items": [1, 2]}\n```',
    fail: 'Result: [1] and {"x": 1}',
  },
  { entry: { type: 'word-count', max: 3 }, pass: 'one two  three', fail: 'one two three four' },
  { entry: { type: 'word-count', min: 2, max: 3 }, pass: 'one two', fail: 'one' },
  { entry: { type: 'word-count', value: 2 }, pass: 'exactly two', fail: 'not exactly two' },
  { entry: { type: 'word-count', value: { min: 2 } }, pass: 'two words', fail: 'one' },
  { entry: { type: 'char-count', max: 5 }, pass: '👋🏽héllo'.slice(0, 4), fail: 'abcdef' },
  { entry: { type: 'line-count', max: 2 }, pass: 'a\nb\n', fail: 'a\nb\nc' },
  { entry: { type: 'javascript', value: "output.includes('ok')" }, pass: 'is ok', fail: 'is not' },
  {
    entry: { type: 'javascript', value: 'vars.topic === context.vars.topic && output.includes(vars.topic)' },
    pass: 'about tea',
    fail: 'about coffee',
  },
];

describe.each(ROWS)('$entry.type $entry.value', ({ entry, pass, fail }) => {
  const vars = { topic: 'tea' };

  it('passes', async () => {
    const outcome = await judge(entry, pass, vars);
    expect(outcome, outcome.reason).toMatchObject({ pass: true, score: 1 });
    expect(outcome.reason).not.toBe('');
  });

  it('fails', async () => {
    const outcome = await judge(entry, fail, vars);
    expect(outcome, outcome.reason).toMatchObject({ pass: false, score: 0 });
    expect(outcome.error).toBeUndefined();
  });

  it('negated with not-', async () => {
    const negated = { ...entry, type: `not-${entry.type}` };
    const onPass = await judge(negated, pass, vars);
    expect(onPass).toMatchObject({ pass: false, score: 0, type: `not-${entry.type}` });
    expect(onPass.reason).toMatch(/^expected the opposite, but /);
    expect(await judge(negated, fail, vars)).toMatchObject({ pass: true, score: 1 });
  });

  it('carries weight and gate, defaulting to 1 and false', async () => {
    expect(await judge(entry, pass, vars)).toMatchObject({ weight: 1, gate: false });
    expect(await judge({ ...entry, weight: 2.5, gate: true }, fail, vars)).toMatchObject({
      weight: 2.5,
      gate: true,
      pass: false,
    });
  });
});

describe('edge cases', () => {
  const huge = 'word '.repeat(200_000); // 1 MB

  it.each<[CheckEntry, boolean]>([
    [{ type: 'equals', value: 'x' }, false],
    [{ type: 'contains', value: 'x' }, false],
    [{ type: 'not-contains', value: 'x' }, true],
    [{ type: 'contains-any', value: ['x'] }, false],
    [{ type: 'not-icontains-all', value: ['x'] }, true],
    [{ type: 'starts-with', value: 'x' }, false],
    [{ type: 'regex', value: '^$' }, true],
    [{ type: 'is-json' }, false],
    [{ type: 'contains-json' }, false],
    [{ type: 'word-count', max: 5 }, true],
    [{ type: 'word-count', min: 1 }, false],
    [{ type: 'char-count', value: 0 }, true],
    [{ type: 'line-count', value: 0 }, true],
    [{ type: 'javascript', value: "output === ''" }, true],
  ])('empty output: %o → pass %s', async (entry, expected) => {
    expect((await judge(entry, '')).pass).toBe(expected);
  });

  it.each<[CheckEntry, string, boolean]>([
    [{ type: 'icontains', value: 'ÉCOLE' }, 'une école', true],
    [{ type: 'contains', value: 'é' }, 'e\u0301', false],
    [{ type: 'char-count', value: 8 }, '👋🏽 héllo', true],
    [{ type: 'word-count', value: 2 }, 'こんにちは\u3000世界', true],
    [{ type: 'starts-with', value: 'Olá' }, 'Olá, mundo', true],
    [{ type: 'regex', value: '^[^\\x00-\\x7F]+$' }, '日本語', true],
    [{ type: 'icontains-all', value: ['straße', 'ΣΟΦΊΑ'] }, 'Die Straße der σοφία', true],
    [{ type: 'is-json', value: { type: 'object', properties: { k: { const: '✓' } } } }, '{"k": "✓"}', true],
    [{ type: 'line-count', value: 2 }, 'línea 1\r\nlínea 2\r\n', true],
    [{ type: 'javascript', value: '[...output].length === 2' }, '👋🏽', true],
  ])('unicode: %o on %j → pass %s', async (entry, output, expected) => {
    expect((await judge(entry, output)).pass).toBe(expected);
  });

  it.each<[CheckEntry, boolean]>([
    [{ type: 'equals', value: 'word' }, false],
    [{ type: 'contains', value: 'word word' }, true],
    [{ type: 'icontains-any', value: ['zzz', 'WORD'] }, true],
    [{ type: 'contains-all', value: ['word', 'missing'] }, false],
    [{ type: 'starts-with', value: 'word' }, true],
    [{ type: 'regex', value: '(word )+$' }, true],
    [{ type: 'is-json' }, false],
    [{ type: 'contains-json' }, false],
    [{ type: 'word-count', value: 200_000 }, true],
    [{ type: 'char-count', max: 1_000_000 }, true],
    [{ type: 'line-count', value: 1 }, true],
    [{ type: 'javascript', value: 'output.length === 1_000_000' }, true],
  ])('huge output (1 MB): %o → pass %s', async (entry, expected) => {
    expect((await judge(entry, huge)).pass).toBe(expected);
  });

  it('finds JSON at the end of a megabyte of text and a megabyte of JSON', async () => {
    expect((await judge({ type: 'contains-json' }, `${huge}{"end": true}`)).pass).toBe(true);
    const bigJson = JSON.stringify({ items: Array.from({ length: 50_000 }, (_, i) => ({ i })) });
    expect(
      (await judge({ type: 'is-json', value: { type: 'object', required: ['items'] } }, bigJson)).pass,
    ).toBe(true);
    expect((await judge({ type: 'contains-json' }, `intro ${bigJson} outro`)).pass).toBe(true);
  });

  it('gives up quickly on a megabyte of unbalanced brackets', async () => {
    const started = performance.now();
    expect((await judge({ type: 'contains-json' }, '{['.repeat(500_000))).pass).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('javascript results', () => {
  it.each<[string, number | undefined, { pass: boolean; score: number }]>([
    ['0.7', undefined, { pass: true, score: 0.7 }],
    ['0', undefined, { pass: false, score: 0 }],
    ['0.4', 0.5, { pass: false, score: 0.4 }],
    ['0.5', 0.5, { pass: true, score: 0.5 }],
    ['12', undefined, { pass: true, score: 1 }],
    ['-3', undefined, { pass: false, score: 0 }],
    ['({ pass: true, score: 0.25, reason: "fine" })', undefined, { pass: true, score: 0.25 }],
    ['({ pass: true, score: 0.25 })', 0.5, { pass: false, score: 0.25 }],
    ['({ pass: false })', undefined, { pass: false, score: 0 }],
    ['Promise.resolve(true)', undefined, { pass: true, score: 1 }],
  ])('%s (threshold %s)', async (value, threshold, expected) => {
    const entry: CheckEntry =
      threshold === undefined ? { type: 'javascript', value } : { type: 'javascript', value, threshold };
    expect(await judge(entry, 'out')).toMatchObject(expected);
  });

  it('inverts a numeric score under not-', async () => {
    expect(await judge({ type: 'not-javascript', value: '0.25' }, 'out')).toMatchObject({
      pass: false,
      score: 0.75,
    });
  });

  it('keeps the reason the code gives', async () => {
    const outcome = await judge(
      { type: 'javascript', value: '({ pass: false, score: 0.1, reason: "too formal" })' },
      'x',
    );
    expect(outcome.reason).toBe('too formal');
  });

  it.each([
    ['throw new Error("boom")', /threw: boom/],
    ['undefined', /returned undefined/],
    ['"yes"', /returned string/],
    ['({ score: 1 })', /without a boolean `pass`/],
    ['NaN', /not a finite number/],
    ['new Promise(() => {})', /never settled/],
  ])('%s fails as an error, also when negated', async (value, reason) => {
    for (const type of ['javascript', 'not-javascript']) {
      const outcome = await judge({ type, value }, 'x');
      expect(outcome).toMatchObject({ pass: false, score: 0, error: true });
      expect(outcome.reason).toMatch(reason);
    }
  });
});
