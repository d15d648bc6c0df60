/**
 * One evaluation of an experiment with structured output whose generator sometimes calls a
 * tool (docs/design/prompt-shapes.md): the output file, the judge and the grader get the text then
 * the calls' JSON line; checks get the text alone and the calls apart; the implicit `output-schema`
 * gate fails the output that is not valid JSON, lets the one with tool calls pass, and weighs
 * nothing; the scoring record keeps the calls.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { evaluateAndRecord } from '../../../src/evaluate/evaluate-and-record.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import type { Experiment } from '../../../src/experiment/types.js';
import { createModelPool } from '../../../src/providers/model-pool.js';
import { candidatePaths } from '../../../src/run/paths.js';
import { CandidateResult } from '../../../src/evaluate/candidate-result.js';
import { createInProcessGrader } from '../../helpers/in-process-grader.js';
import { createInProcessJudge } from '../../helpers/in-process-judge.js';
import { createScriptedProviders, lastUserMessage } from '../../helpers/scripted-provider.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };
const SCHEMA = { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } };
const WEATHER_FILE =
  'Let me check the weather.\n\n{"tool_calls":[{"name":"get_weather","arguments":{"city":"Paris","unit":"c"}}]}';

async function loadWithSchema(dir: string): Promise<Experiment> {
  const experimentDir = path.join(dir, 'experiments', 'tools');
  await mkdir(experimentDir, { recursive: true });
  await writeFile(path.join(experimentDir, 'prompt.md'), 'Answer {{name}}.\n');
  await writeFile(path.join(experimentDir, 'rubric.md'), '## Criteria\n\n### Helpful\n');
  await writeFile(
    path.join(experimentDir, 'cases.yaml'),
    stringify([
      { id: 'weather', vars: { name: 'weather' }, expectations: ['Asks for the weather in Paris'] },
      { id: 'json', vars: { name: 'json' } },
      { id: 'prose', vars: { name: 'prose' } },
    ]),
  );
  await writeFile(
    path.join(experimentDir, 'experiment.yaml'),
    stringify({
      name: 'tools',
      prompt: 'prompt.md',
      cases: 'cases.yaml',
      rubric: 'rubric.md',
      models: {
        generator: { provider: 'anthropic', model: 'gen', max_retries: 0 },
        judge: { provider: 'anthropic', model: 'jdg' },
        grader: { provider: 'anthropic', model: 'grd' },
      },
      checks: [
        { type: 'javascript', value: "!output.includes('tool_calls')", name: 'text-alone' },
        { type: 'not-tool-call', value: 'delete_account' },
      ],
      search: { holdout: 0 },
      concurrency: 2,
    }),
  );
  const { experiment } = await loadExperiment(experimentDir, { cwd: dir, env });
  if (experiment === undefined) throw new Error('the experiment did not load');
  // The format's `output.json_schema` as the loader gives it (src/experiment/types.ts PromptShape).
  return {
    ...experiment,
    shape: {
      ...experiment.shape,
      output: { name: 'reply', schema: SCHEMA, path: path.join(experimentDir, 'schema.json') },
    },
  };
}

describe('an evaluation whose outputs call tools', () => {
  const tmp = useTempDir('tool-call-outputs-');

  it('shows the calls to the file, the judge and the grader, apart to the checks, and gates on the schema', async () => {
    const dir = tmp();
    const experiment = await loadWithSchema(dir);
    const scripted = createScriptedProviders({
      gen: ({ request }) => {
        const name = /Answer (\w+)/.exec(lastUserMessage(request))?.[1];
        if (name === 'weather') {
          return {
            text: 'Let me check the weather.',
            toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { unit: 'c', city: 'Paris' } }],
          };
        }
        return name === 'json' ? '{"answer": "42"}' : 'The answer is 42.';
      },
    });
    const pool = createModelPool({
      models: experiment.models,
      concurrency: 2,
      env,
      createProvider: scripted.factory,
    });
    const judge = createInProcessJudge(() => 4);
    const grader = createInProcessGrader((_, outputs) => outputs.some((o) => o.includes('"city":"Paris"')));
    const paths = candidatePaths(path.join(dir, 'runs', 'r'), 0, 0);
    const outcome = await evaluateAndRecord(
      paths,
      { experiment, prompt: experiment.prompt, cases: experiment.cases, samples: 1, sampleBase: 0, seed: 1 },
      { pool, env, judge, grader },
    ).finally(() => pool.close());

    expect(await readFile(paths.output('weather', 0), 'utf8')).toBe(WEATHER_FILE);
    expect(await readFile(paths.output('json', 0), 'utf8')).toBe('{"answer": "42"}');
    expect(judge.requests[0]?.outputs).toContainEqual({ caseId: 'weather', sample: 0, text: WEATHER_FILE });
    expect(grader.requests[0]?.outputs).toEqual([{ sample: 0, text: WEATHER_FILE, stopReason: 'end_turn' }]);

    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { evaluation, scores } = outcome;
    // The grader's evidence (the whole file) was verified against the whole file.
    expect(evaluation.gradings).toEqual([
      { caseId: 'weather', expectations: [expect.objectContaining({ passed: true })] },
    ]);
    const outcomes = (caseId: string) =>
      evaluation.checks.find((c) => c.caseId === caseId)?.outcomes.map((o) => [o.name, o.pass]);
    expect(outcomes('weather')).toEqual([
      ['output-schema', true],
      ['text-alone', true],
      ['not-tool-call: delete_account', true],
    ]);
    expect(outcomes('json')).toEqual([
      ['output-schema', true],
      ['text-alone', true],
      ['not-tool-call: delete_account', true],
    ]);
    expect(outcomes('prose')?.[0]).toEqual(['output-schema', false]);
    expect(evaluation.cases[0]?.checks[0]).toEqual({ name: 'output-schema', weight: 0, gate: true });
    expect(scores.all.gateFailed).toBe(true);
    expect(scores.all.gateFailures).toEqual([
      expect.objectContaining({ caseId: 'prose', check: 'output-schema' }),
    ]);
    // Weight 0: every weighted check passed everywhere.
    expect(scores.all.checks).toBe(1);

    const record = CandidateResult.parse(JSON.parse(await readFile(paths.evaluation, 'utf8')));
    expect(record.evaluation.outputs.find((o) => o.caseId === 'weather')).toEqual({
      caseId: 'weather',
      sample: 0,
      ok: true,
      text: 'Let me check the weather.',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { unit: 'c', city: 'Paris' } }],
    });
    expect(record.evaluation.outputs.find((o) => o.caseId === 'json')).not.toHaveProperty('toolCalls');
  });
});
