/**
 * One evaluation with the rubric and expectations on, judged and graded in-process: the three
 * stages in order, the judge's and grader's verdicts in the scores, the first failure of
 * either side as the evaluation's error (the other side stopped), and the judge shown only
 * the successful outputs and the rubric.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { evaluateCandidate } from '../../../src/evaluate/evaluate-candidate.js';
import type { EvaluateDeps } from '../../../src/evaluate/evaluate-types.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import { createModelPool } from '../../../src/providers/model-pool.js';
import { ProviderError } from '../../../src/providers/types.js';
import type { Phase } from '../../../src/run/events.js';
import { createInProcessGrader } from '../../helpers/in-process-grader.js';
import { createInProcessJudge } from '../../helpers/in-process-judge.js';
import { createScriptedProviders, lastUserMessage } from '../../helpers/scripted-provider.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };
const RUBRIC = '## Criteria\n\n### Clarity\n\n### Tone\n';

async function evaluateWith(dir: string, parts: Pick<EvaluateDeps, 'judge' | 'grader'>) {
  const experimentDir = path.join(dir, 'experiments', 'stages');
  await mkdir(experimentDir, { recursive: true });
  await writeFile(path.join(experimentDir, 'prompt.md'), 'Write to {{name}}.\n');
  await writeFile(path.join(experimentDir, 'rubric.md'), RUBRIC);
  await writeFile(
    path.join(experimentDir, 'cases.yaml'),
    stringify([
      { id: 'ada', vars: { name: 'Ada' }, expectations: ['Greets Ada'] },
      { id: 'bo', vars: { name: 'Bo' }, expectations: ['Greets Bo'] },
      { id: 'fails', vars: { name: 'FAIL' } },
    ]),
  );
  await writeFile(
    path.join(experimentDir, 'experiment.yaml'),
    stringify({
      name: 'stages',
      prompt: 'prompt.md',
      cases: 'cases.yaml',
      rubric: 'rubric.md',
      models: {
        generator: { provider: 'anthropic', model: 'gen', max_retries: 0 },
        judge: { provider: 'anthropic', model: 'jdg' },
        grader: { provider: 'anthropic', model: 'grd' },
      },
      checks: [{ type: 'icontains', value: 'Hello' }],
      search: { holdout: 0 },
      concurrency: 2,
    }),
  );
  const { experiment } = await loadExperiment(experimentDir, { cwd: dir, env });
  const scripted = createScriptedProviders({
    gen: ({ request }) => {
      const name = /Write to (\w+)/.exec(lastUserMessage(request))?.[1] ?? '';
      if (name === 'FAIL') throw new ProviderError('server', 'the generator failed');
      return `Hello ${name}, how are you?`;
    },
  });
  const pool = createModelPool({
    models: experiment.models,
    concurrency: 2,
    env,
    createProvider: scripted.factory,
  });
  const phases: Phase[] = [];
  try {
    const outcome = await evaluateCandidate(
      { experiment, prompt: experiment.prompt, cases: experiment.cases, samples: 1, sampleBase: 0, seed: 7 },
      {
        pool,
        env,
        ...parts,
        onPhase: (phase) => {
          if (phases.at(-1) !== phase) phases.push(phase);
        },
      },
    );
    return { outcome, phases, experiment };
  } finally {
    await pool.close();
  }
}

describe('evaluateCandidate with in-process judge and grader', () => {
  const tmp = useTempDir('evaluate-candidate-');

  it('generates and checks, then judges and grades, then scores', async () => {
    const judge = createInProcessJudge((text, criterion) =>
      criterion === 'clarity' && text.includes('Ada') ? 5 : 3,
    );
    const grader = createInProcessGrader((expectation, outputs) =>
      outputs.some((o) => o.includes(expectation.split(' ')[1] ?? '?')),
    );
    const { outcome, phases } = await evaluateWith(tmp(), { judge, grader });

    expect(phases).toEqual(['generating', 'checking', 'judging', 'grading', 'scoring']);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.judge?.perOutput.map((o) => [o.caseId, o.criteria]).sort()).toEqual([
      ['ada', { clarity: 5, tone: 3 }],
      ['bo', { clarity: 3, tone: 3 }],
    ]);
    expect(outcome.gradings.map((g) => [g.caseId, g.grading.summary.passed])).toEqual([
      ['ada', 1],
      ['bo', 1],
    ]);
    // The failed generation sits at the floor of every component.
    expect(outcome.scores.all.expectations).toBeCloseTo(1);
    expect(outcome.scores.all.checks).toBeCloseTo(2 / 3);
    expect(judge.closed()).toBe(1);
  });

  it('shows the judge only the successful outputs and the rubric', async () => {
    const judge = createInProcessJudge(() => 4);
    const grader = createInProcessGrader(() => true);
    const { experiment } = await evaluateWith(tmp(), { judge, grader });

    expect(judge.requests).toEqual([
      {
        outputs: expect.arrayContaining([
          { caseId: 'ada', sample: 0, text: 'Hello Ada, how are you?' },
          { caseId: 'bo', sample: 0, text: 'Hello Bo, how are you?' },
        ]),
        rubric: experiment.rubric,
        seed: 7,
      },
    ]);
    expect(judge.requests[0]?.outputs).toHaveLength(2);
  });

  it('a failed judge is a judge_error, never a score', async () => {
    const judge = createInProcessJudge(() => {
      throw new Error('unreadable');
    });
    const grader = createInProcessGrader(() => true);
    const { outcome } = await evaluateWith(tmp(), { judge, grader });
    expect(outcome).toMatchObject({ ok: false, errorKind: 'judge_error', message: 'unreadable' });
    expect(judge.closed()).toBe(1);
  });

  it('a failed grader is a grader_error naming its case', async () => {
    const judge = createInProcessJudge(() => 4);
    const grader = createInProcessGrader((expectation) => {
      if (expectation === 'Greets Bo') throw new Error('no verdict');
      return true;
    });
    const { outcome } = await evaluateWith(tmp(), { judge, grader });
    expect(outcome).toMatchObject({ ok: false, errorKind: 'grader_error', message: 'case bo: no verdict' });
  });

  it('refuses to evaluate expectations without a grader', async () => {
    await expect(evaluateWith(tmp(), { judge: createInProcessJudge(() => 4) })).rejects.toThrow(
      /the expectations need a grader/,
    );
  });
});
