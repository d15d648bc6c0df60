import { describe, expect, it } from 'vitest';
import {
  CHECK_TYPE_NAMES,
  checkName,
  findCheck,
  parseCheckType,
  validateCheckEntry,
} from '../../../src/checks/registry.js';
import type { CheckEntry } from '../../../src/experiment/schema.js';

describe('the vocabulary', () => {
  it('has promptfoo names', () => {
    expect(CHECK_TYPE_NAMES).toEqual([
      'equals',
      'contains',
      'icontains',
      'contains-any',
      'contains-all',
      'icontains-any',
      'icontains-all',
      'starts-with',
      'regex',
      'is-json',
      'contains-json',
      'word-count',
      'char-count',
      'line-count',
      'javascript',
      'command',
      'tool-call',
      'file-exists',
      'turn-count',
      'end-reason',
      'tool-error-count',
      'skill-used',
    ]);
  });

  it('reads the not- prefix', () => {
    expect(parseCheckType('not-icontains-any')).toEqual({ base: 'icontains-any', negated: true });
    expect(parseCheckType('regex')).toEqual({ base: 'regex', negated: false });
    expect(findCheck('not-regex')).toMatchObject({ base: 'regex', negated: true });
    expect(findCheck('not-nothing')).toBeUndefined();
    expect(findCheck('toString')).toBeUndefined();
  });
});

describe('validateCheckEntry', () => {
  it.each<CheckEntry>([
    { type: 'equals', value: 'x' },
    { type: 'equals', value: { a: 1 } },
    { type: 'contains', value: 0 },
    { type: 'not-icontains-any', value: 'a, b' },
    { type: 'contains-all', value: ['a', 2] },
    { type: 'starts-with', value: 'Subject:' },
    { type: 'regex', value: '\\d{4}' },
    { type: 'is-json' },
    { type: 'is-json', value: { type: 'object' } },
    { type: 'is-json', value: '{"type": "array"}' },
    { type: 'contains-json', value: 'type: object\nrequired: [a]' },
    { type: 'word-count', max: 150 },
    { type: 'word-count', value: 10 },
    { type: 'word-count', value: '10' },
    { type: 'char-count', value: { min: 1, max: 2 } },
    { type: 'line-count', min: 3 },
    { type: 'javascript', value: 'output.length < 10' },
    { type: 'javascript', value: 'const n = output.length;\nreturn n < 10;' },
    { type: 'javascript', value: 'file://checks/tone.js' },
    { type: 'command', value: ['node', 'check.mjs'] },
  ])('accepts %o', (entry) => {
    expect(validateCheckEntry(entry)).toEqual([]);
  });

  it('names an unknown type and suggests the nearest, keeping the prefix', () => {
    expect(validateCheckEntry({ type: 'icontain', value: 'x' })).toEqual([
      { keyPath: 'type', message: 'unknown check type "icontain"', hint: 'did you mean "icontains"?' },
    ]);
    expect(validateCheckEntry({ type: 'not-contains_any', value: 'x' })[0]?.hint).toBe(
      'did you mean "not-contains-any"?',
    );
    expect(validateCheckEntry({ type: 'llm-rubric', value: 'x' })[0]?.hint).toMatch(/^known types: equals, /);
  });

  it.each<[CheckEntry, string, RegExp]>([
    [{ type: 'equals' }, 'value', /needs a value/],
    [{ type: 'contains' }, 'value', /non-empty string or number/],
    [{ type: 'icontains', value: '' }, 'value', /non-empty/],
    [{ type: 'contains', value: ['a'] }, 'value', /string or number/],
    [{ type: 'contains-any' }, 'value', /list of strings/],
    [{ type: 'contains-all', value: [{ a: 1 }] }, 'value', /list of strings/],
    [{ type: 'icontains-all', value: ' , ' }, 'value', /at least one/],
    [{ type: 'starts-with', value: true }, 'value', /string/],
    [{ type: 'regex' }, 'value', /pattern string/],
    [
      { type: 'regex', value: '(unclosed' },
      'value',
      /Invalid regular expression: \/\(unclosed\/: Unterminated group/,
    ],
    [
      { type: 'is-json', value: { type: 'strng' } },
      'value',
      /invalid JSON schema: schema is invalid: data\/type/,
    ],
    [{ type: 'contains-json', value: 5 }, 'value', /invalid JSON schema: value must be a JSON schema object/],
    [{ type: 'is-json', value: 'file://schema.json' }, 'value', /not supported/],
    [{ type: 'word-count' }, 'value', /needs min, max, or an exact count/],
    [{ type: 'word-count', min: 10, max: 5 }, 'min', /min \(10\) is greater than max \(5\)/],
    [{ type: 'char-count', value: { min: 9, max: 1 } }, 'value.min', /greater than max/],
    [{ type: 'char-count', value: { least: 1 } }, 'value.least', /only min and max/],
    [{ type: 'line-count', value: 3, max: 4 }, 'value', /either min\/max or a value/],
    [{ type: 'line-count', value: -1 }, 'value', /count/],
    [{ type: 'word-count', min: -2 }, 'min', /min must be a number >= 0/],
    [{ type: 'javascript' }, 'value', /expression or a file:\/\/path.js/],
    [{ type: 'javascript', value: '   ' }, 'value', /expression or a file/],
    [{ type: 'javascript', value: 'output.includes(' }, 'value', /does not compile/],
    [{ type: 'command' }, 'value', /argv list/],
    [{ type: 'command', value: 'node check.mjs' }, 'value', /argv list/],
    [{ type: 'command', value: ['node', ''] }, 'value', /argv list/],
    [{ type: 'tool-call' }, 'value', /needs the name of the tool/],
    [{ type: 'tool-call', value: ['get_weather'] }, 'value', /needs the name of the tool/],
    [{ type: 'not-tool-call', value: '' }, 'value', /needs the name of the tool/],
    [{ type: 'tool-call', value: 'get_weather', arguments: 'Paris' }, 'arguments', /must be a mapping/],
    [{ type: 'tool-call', name: 'get_weather', arguments: ['Paris'] }, 'arguments', /must be a mapping/],
  ])('rejects %o at %s', (entry, keyPath, message) => {
    const issues = validateCheckEntry(entry);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.keyPath).toBe(keyPath);
    expect(issues[0]?.message).toMatch(message);
  });

  it('validates the negated form like the plain one', () => {
    expect(validateCheckEntry({ type: 'not-regex', value: '[' })[0]?.keyPath).toBe('value');
  });
});

describe('checkName', () => {
  it.each<[CheckEntry, string]>([
    [{ type: 'contains', value: 'billing', name: 'Mentions billing' }, 'Mentions billing'],
    [{ type: 'not-icontains-any', value: ['synergy', 'leverage'] }, 'not-icontains-any: synergy, leverage'],
    [{ type: 'word-count', max: 150 }, 'word-count: <= 150'],
    [{ type: 'char-count', min: 10, max: 20 }, 'char-count: 10–20'],
    [{ type: 'line-count', value: 3 }, 'line-count: = 3'],
    [{ type: 'is-json' }, 'is-json'],
    [{ type: 'command', value: ['node', 'tone.mjs'] }, 'command: node tone.mjs'],
    [
      { type: 'javascript', value: 'output.split("\\n").filter(Boolean).every((line) => line.length < 80)' },
      'javascript: output.split("\\n").filter(Boolean).ever…',
    ],
    [{ type: 'tool-call', value: 'get_weather' }, 'tool-call: get_weather'],
    [{ type: 'not-tool-call', value: 'f', arguments: { b: 1, a: 'x' } }, 'not-tool-call: f {"a":"x","b":1}'],
    [{ type: 'tool-call', name: 'lookup_order' }, 'lookup_order'],
    [{ type: 'mystery', value: 1 }, 'mystery'],
  ])('%o → %s', (entry, name) => {
    expect(checkName(entry)).toBe(name);
  });
});
