/**
 * The `tool-call` check (docs/design/prompt-shapes.md) through runChecks, as the evaluation runs
 * it: the calls reach it apart from the text, by name, by a subset of the arguments, negated, among
 * several calls, and as a gate in the checks signal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../../src/checks/run-checks.js';
import { ValidationError } from '../../../../src/errors.js';
import { loadExperiment } from '../../../../src/experiment/load-experiment.js';
import type { CheckEntry } from '../../../../src/experiment/schema.js';
import type { ToolCall } from '../../../../src/providers/types.js';
import { checksSignal } from '../../../../src/scoring/checks-signal.js';
import { declareChecks } from '../../../../src/scoring/scoring-cases.js';
import { useTempDir } from '../../../helpers/temp-dir.js';

const weather: ToolCall = {
  id: 'call_1',
  name: 'get_weather',
  arguments: { city: 'Paris', unit: 'c', when: { day: 'today', hour: 9 }, tags: ['a', 'b'] },
};
const lookup: ToolCall = { id: 'call_2', name: 'lookup_order', arguments: { order: '42' } };

async function judge(entry: CheckEntry, toolCalls: ToolCall[], output = 'Let me check.') {
  const [outcome] = await runChecks({
    output,
    toolCalls,
    vars: {},
    checks: [entry],
    baseDir: process.cwd(),
    env: {},
  });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

describe('tool-call', () => {
  const tmp = useTempDir('ar-tool-call-');

  it('passes when the tool was called, by value or (without value) by name', async () => {
    expect(await judge({ type: 'tool-call', value: 'get_weather' }, [weather])).toMatchObject({
      pass: true,
      score: 1,
      reason: 'called "get_weather"',
    });
    expect(await judge({ type: 'tool-call', name: 'get_weather' }, [weather])).toMatchObject({
      pass: true,
      name: 'get_weather',
    });
  });

  it('fails, saying what was called, when the tool was not called or nothing was', async () => {
    expect(await judge({ type: 'tool-call', value: 'get_weather' }, [lookup])).toMatchObject({
      pass: false,
      score: 0,
      reason: 'no call to "get_weather"; called "lookup_order"',
    });
    const none = await judge({ type: 'tool-call', value: 'get_weather' }, []);
    expect(none).toMatchObject({ pass: false, reason: 'the output called no tool (expected "get_weather")' });
    expect(none.error).toBeUndefined();
  });

  it('matches a subset of the arguments, nested mappings key by key, lists and scalars exactly', async () => {
    const pass = async (args: Record<string, unknown>) =>
      (await judge({ type: 'tool-call', value: 'get_weather', arguments: args }, [weather])).pass;
    expect(await pass({ city: 'Paris' })).toBe(true);
    expect(await pass({ unit: 'c', when: { hour: 9 } })).toBe(true);
    expect(await pass({ tags: ['a', 'b'] })).toBe(true);
    expect(await pass({ city: 'paris' })).toBe(false);
    expect(await pass({ tags: ['a'] })).toBe(false);
    expect(await pass({ when: { hour: '9' } })).toBe(false);
    expect(await pass({ country: 'FR' })).toBe(false);
    expect(await pass({ city: { name: 'Paris' } })).toBe(false);
  });

  it('says which calls did not match the arguments', async () => {
    const outcome = await judge({ type: 'tool-call', value: 'get_weather', arguments: { city: 'Rome' } }, [
      weather,
    ]);
    expect(outcome.pass).toBe(false);
    expect(outcome.reason).toMatch(
      /^called "get_weather", but not with \{"city":"Rome"\}: get_weather \{"city":"Paris",/,
    );
  });

  it('passes when any of several calls matches', async () => {
    const second = { ...weather, id: 'call_3', arguments: { city: 'Rome' } };
    const calls = [lookup, weather, second];
    expect(
      (await judge({ type: 'tool-call', value: 'get_weather', arguments: { city: 'Rome' } }, calls)).pass,
    ).toBe(true);
    expect((await judge({ type: 'tool-call', value: 'lookup_order' }, calls)).pass).toBe(true);
    expect(
      (await judge({ type: 'tool-call', value: 'get_weather', arguments: { city: 'Oslo' } }, calls)).pass,
    ).toBe(false);
  });

  it('not-tool-call passes exactly when no call matches', async () => {
    const never = { type: 'not-tool-call', value: 'delete_account' };
    expect(await judge(never, [])).toMatchObject({ pass: true, score: 1 });
    expect(await judge(never, [weather, lookup])).toMatchObject({ pass: true, score: 1 });
    expect(await judge({ type: 'not-tool-call', value: 'get_weather' }, [weather])).toMatchObject({
      pass: false,
      score: 0,
    });
    expect(
      (await judge({ type: 'not-tool-call', value: 'get_weather', arguments: { city: 'Rome' } }, [weather]))
        .pass,
    ).toBe(true);
  });

  it('looks at the calls, not the text: a text naming the tool is no call', async () => {
    const outcome = await judge(
      { type: 'tool-call', value: 'get_weather' },
      [],
      '{"tool_calls":[{"name":"get_weather"}]}',
    );
    expect(outcome.pass).toBe(false);
  });

  it('as a gate, a miss on one output makes the candidate ineligible', async () => {
    const checks: CheckEntry[] = [{ type: 'tool-call', value: 'get_weather', gate: true }];
    const cases = [{ id: 'c', split: 'train' as const, checks: declareChecks(checks), expectations: [] }];
    const outputs = [0, 1].map((sample) => ({ caseId: 'c', sample, ok: true, text: 'x' }));
    const results = [
      {
        caseId: 'c',
        sample: 0,
        outcomes: await runChecks({ output: 'x', toolCalls: [weather], vars: {}, checks, baseDir: '.' }),
      },
      {
        caseId: 'c',
        sample: 1,
        outcomes: await runChecks({ output: 'x', toolCalls: [lookup], vars: {}, checks, baseDir: '.' }),
      },
    ];
    const signal = checksSignal({ cases, samples: 2, outputs, checks: results });
    expect(signal.value).toBeCloseTo(0.5);
    expect(signal.gateFailed).toBe(true);
    expect(signal.gateFailures).toEqual([
      {
        caseId: 'c',
        sample: 1,
        check: 'tool-call: get_weather',
        reason: 'no call to "get_weather"; called "lookup_order"',
      },
    ]);
  });

  it('a bad definition is a validate error at its file and line', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'experiment.yaml'),
      'name: t\nprompt: prompt.md\ncases: cases.yaml\nmodels:\n  generator: { provider: sim }\nsearch: { holdout: 0 }\nchecks:\n  - { type: contains, value: a }\n  - type: tool-call\n    value: get_weather\n    arguments: Paris\n',
    );
    writeFileSync(join(dir, 'cases.yaml'), '- vars: { x: a }\n  checks:\n    - { type: not-tool-call }\n');
    writeFileSync(join(dir, 'prompt.md'), 'Say {{x}}.');
    const problems = await loadExperiment(dir, { cwd: dir, env: {} }).then(
      () => [],
      (error: unknown) => (error instanceof ValidationError ? error.problems : Promise.reject(error)),
    );
    expect(
      problems.map((p) => [p.location.file.slice(dir.length + 1), p.location.line, p.keyPath, p.message]),
    ).toEqual([
      ['cases.yaml', 3, '[0].checks[0].value', 'tool-call needs the name of the tool in value'],
      [
        'experiment.yaml',
        11,
        'checks[1].arguments',
        'arguments must be a mapping of the argument values the call must have',
      ],
    ]);
  });
});
