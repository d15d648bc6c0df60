/**
 * `judging.inputs: true` (docs/design/judge-protocol.md) through a whole evaluation with the real
 * sandboxed judge and grader: spy programs record their sandboxes. With inputs, the judge's sandbox
 * holds exactly the outputs, the inputs and the rubric, each `inputs/input_NN.txt` holding the case
 * behind `outputs/output_NN.txt`; the grader's holds its usual files plus one input per output.
 * Neither holds any text of the prompt template or the system prompt. Without the setting, both
 * sandboxes are exactly what they were before it existed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { evaluateCandidate } from '../../src/evaluate/evaluate-candidate.js';
import { createSandboxedReview } from '../../src/evaluate/sandboxed-review.js';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import type { Case } from '../../src/experiment/types.js';
import { renderCaseInputs } from '../../src/protocol/case-inputs.js';
import { systemBwrapProbe } from '../../src/sandbox/isolation.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import type { ChatMessage } from '../../src/providers/types.js';
import { createScriptedProviders } from '../helpers/scripted-provider.js';
import { useTempDir } from '../helpers/temp-dir.js';

const SPY_JUDGE = path.resolve('test/fixtures/judges/spy-judge.mjs');
const GRADER = path.resolve('test/fixtures/graders/fixture-grader.mjs');
const TEMPLATE_MARK = 'QUOKKA-TEMPLATE-7e1';
const SYSTEM_MARK = 'SYSTEM-SECRET-91c';
const TEMPLATE = `${TEMPLATE_MARK}: answer {{name}} about order {{order}} in two sentences.\n`;
const SYSTEM = `${SYSTEM_MARK}: you are the help desk of Lighthouse Parcels.`;
const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };

// Each case's conversation so far, as the loader leaves it (placeholders already filled).
const CONVERSATIONS: Record<string, ChatMessage[]> = {
  ada: [
    { role: 'user', content: 'Hi, my parcel 7 has not arrived.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'track', arguments: { order: 7 } }] },
    { role: 'tool', toolCallId: 'call_1', content: '{"status":"in transit"}' },
    { role: 'user', content: 'So when will it come?' },
  ],
  bo: [{ role: 'user', content: 'Can I change the address of parcel 12?' }],
};

interface SandboxFile {
  path: string;
  text: string;
}

async function evaluateWith(dir: string, judging: Record<string, unknown>) {
  const experimentDir = path.join(dir, 'experiments', 'desk');
  await mkdir(experimentDir, { recursive: true });
  await writeFile(path.join(experimentDir, 'prompt.md'), TEMPLATE);
  await writeFile(path.join(experimentDir, 'rubric.md'), '## Criteria\n\n### Helpful\n\n### Polite\n');
  await writeFile(
    path.join(experimentDir, 'cases.yaml'),
    stringify([
      { id: 'ada', vars: { name: 'Ada', order: '7' }, expectations: ['Gives a delivery date'] },
      { id: 'bo', vars: { name: 'Bo', order: '12' }, expectations: ['Says whether the address can change'] },
    ]),
  );
  await writeFile(
    path.join(experimentDir, 'experiment.yaml'),
    stringify({
      name: 'desk',
      prompt: 'prompt.md',
      cases: 'cases.yaml',
      rubric: 'rubric.md',
      models: {
        generator: { provider: 'anthropic', model: 'gen', max_retries: 0, system: SYSTEM },
        judge: { command: [process.execPath, SPY_JUDGE], timeout_s: 60 },
        grader: { command: [process.execPath, GRADER, 'spy'], timeout_s: 60 },
      },
      search: { holdout: 0 },
      concurrency: 2,
      judging,
    }),
  );
  const { experiment } = await loadExperiment(experimentDir, { cwd: dir, env });
  for (const testCase of experiment.cases) testCase.messages = CONVERSATIONS[testCase.id];
  // The answer names its case (so pairs can be checked by content) and never echoes the prompt.
  const scripted = createScriptedProviders({
    gen: (call) => {
      const asked = JSON.stringify(call.request.messages);
      const name = /answer (\w+) about/.exec(asked)?.[1] ?? '?';
      return `Dear ${name}, your parcel arrives on Friday.`;
    },
  });
  const pool = createModelPool({
    models: experiment.models,
    concurrency: 2,
    env,
    createProvider: scripted.factory,
  });
  try {
    const outcome = await evaluateCandidate(
      { experiment, prompt: experiment.prompt, cases: experiment.cases, samples: 2, sampleBase: 0, seed: 3 },
      { pool, env, ...createSandboxedReview(experiment, pool, { env }) },
    );
    if (!outcome.ok) throw new Error(`the evaluation failed: ${outcome.message}`);
    const judge = outcome.judge;
    if (judge === undefined) throw new Error('the experiment was not judged');
    const judgeFiles = ((judge.raw as { spy: { cwdFiles: SandboxFile[] } }).spy.cwdFiles ?? []).filter(
      (f) => !f.path.endsWith('/'),
    );
    const graderFiles = Object.fromEntries(
      outcome.gradings.map((g) => [g.caseId, (g.raw as { spy: { cwdFiles: SandboxFile[] } }).spy.cwdFiles]),
    );
    const cases = new Map(experiment.cases.map((c) => [c.id, c]));
    // The generator was sent both: had they leaked, the checks below would see them.
    const sent = JSON.stringify(scripted.callsTo('gen').map((c) => [c.request.system, c.request.messages]));
    expect(sent).toContain(TEMPLATE_MARK);
    expect(sent).toContain(SYSTEM_MARK);
    return { judge, judgeFiles, graderFiles, cases };
  } finally {
    await pool.close();
  }
}

const paths = (files: readonly SandboxFile[]) => files.map((f) => f.path).sort();
const textOf = (files: readonly SandboxFile[], at: string) => files.find((f) => f.path === at)?.text;

function expectNoPromptText(files: readonly SandboxFile[]) {
  for (const file of files) {
    for (const mark of [TEMPLATE_MARK, SYSTEM_MARK, 'help desk of Lighthouse', 'in two sentences']) {
      expect(file.text).not.toContain(mark);
      expect(file.path).not.toContain(mark);
    }
  }
}

describe('judging.inputs', () => {
  const tmp = useTempDir('judge-inputs-');

  // The sandbox's contents are the same at both levels; `os` runs where bubblewrap works.
  const levels = systemBwrapProbe() === undefined ? ['process', 'os'] : ['process'];
  it.each(levels)(
    'true (%s isolation): the judge and grader get each case’s inputs at its output’s number, and no prompt text',
    async (isolation) => {
      const { judge, judgeFiles, graderFiles, cases } = await evaluateWith(tmp(), {
        isolation,
        inputs: true,
      });

      // Judge: exactly the outputs, their inputs and the rubric.
      const numbers = ['00', '01', '02', '03'];
      expect(paths(judgeFiles)).toEqual([
        ...numbers.map((n) => `inputs/input_${n}.txt`),
        ...numbers.map((n) => `outputs/output_${n}.txt`),
        'rubric.md',
      ]);
      for (const entry of judge.map) {
        const testCase = cases.get(entry.case_id) as Case;
        const number = entry.file.replace(/^output_/, '');
        const input = textOf(judgeFiles, `inputs/input_${number}`);
        expect(input).toBe(renderCaseInputs(testCase));
        expect(input).toContain(`name: ${testCase.vars['name']}`);
        expect(textOf(judgeFiles, `outputs/${entry.file}`)).toBe(
          `Dear ${testCase.vars['name']}, your parcel arrives on Friday.`,
        );
      }
      const adaInput = renderCaseInputs(cases.get('ada') as Case);
      expect(adaInput).toContain('Tool call call_1: track {"order":7}');
      expect(adaInput).toContain('User:\nSo when will it come?');
      expectNoPromptText(judgeFiles);

      // Grader: its usual files plus one copy of the case's inputs per output, same numbers.
      for (const [caseId, files] of Object.entries(graderFiles)) {
        expect(paths(files)).toEqual([
          'expectations.json',
          'inputs/input_00.txt',
          'inputs/input_01.txt',
          'outputs/output_00.txt',
          'outputs/output_01.txt',
          'transcript.md',
        ]);
        const expected = renderCaseInputs(cases.get(caseId) as Case);
        expect(textOf(files, 'inputs/input_00.txt')).toBe(expected);
        expect(textOf(files, 'inputs/input_01.txt')).toBe(expected);
        expectNoPromptText(files);
      }
      expect(Object.keys(graderFiles).sort()).toEqual(['ada', 'bo']);
    },
  );

  it('false (the default): both sandboxes hold exactly what they held before the setting existed', async () => {
    const plain = await evaluateWith(tmp(), { isolation: 'process' });
    expect(paths(plain.judgeFiles)).toEqual([
      'outputs/output_00.txt',
      'outputs/output_01.txt',
      'outputs/output_02.txt',
      'outputs/output_03.txt',
      'rubric.md',
    ]);
    for (const files of Object.values(plain.graderFiles))
      expect(paths(files)).toEqual([
        'expectations.json',
        'outputs/output_00.txt',
        'outputs/output_01.txt',
        'transcript.md',
      ]);
    expectNoPromptText(plain.judgeFiles);

    // The same evaluation with inputs differs by the inputs/ files alone.
    const withInputs = await evaluateWith(tmp(), { isolation: 'process', inputs: true });
    const inputsDropped = (files: readonly SandboxFile[]) =>
      files.filter((f) => !f.path.startsWith('inputs/'));
    const sorted = (files: readonly SandboxFile[]) => [...files].sort((a, b) => a.path.localeCompare(b.path));
    expect(sorted(inputsDropped(withInputs.judgeFiles))).toEqual(sorted(plain.judgeFiles));
    expect(withInputs.judge.map).toEqual(plain.judge.map);
    for (const caseId of ['ada', 'bo'])
      expect(sorted(inputsDropped(withInputs.graderFiles[caseId] ?? []))).toEqual(
        sorted(plain.graderFiles[caseId] ?? []),
      );
  });
});
