import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutoresearchError } from '../../../src/errors.js';
import { type RunEvalDeps, runEval, simulatedEvalRoles } from '../../../src/eval-command/run-eval.js';
import { loadExperiment } from '../../../src/experiment/load-experiment.js';
import type { Experiment } from '../../../src/experiment/types.js';
import { createModelPool } from '../../../src/providers/model-pool.js';
import { createSimProvider } from '../../../src/providers/sim/sim-provider.js';
import { type Provider, ProviderError } from '../../../src/providers/types.js';
import { readJournal } from '../../../src/run/journal.js';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/eval/support-reply');

/** The fixture without rubric and expectations: no judge or grader process is started. */
async function checksOnly(): Promise<Experiment> {
  const { experiment } = await loadExperiment(FIXTURE, { cwd: FIXTURE, env: {} });
  const { rubric: _rubric, ...rest } = experiment;
  return {
    ...rest,
    models: { generator: experiment.models.generator, mutator: experiment.models.mutator },
    cases: experiment.cases.map((c) => ({ ...c, expectations: [] })),
  };
}

let runsDir: string;
beforeEach(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'ar-run-eval-'));
});
afterEach(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

function deps(provider: Provider, extra: Partial<RunEvalDeps> = {}): RunEvalDeps {
  let tick = Date.parse('2026-11-29T22:30:00.000Z');
  return {
    env: {},
    now: () => {
      tick += 250;
      return new Date(tick);
    },
    random: () => 0.5,
    signal: new AbortController().signal,
    identity: { pid: process.pid, host: hostname(), startTime: null },
    createPool: (options) => createModelPool({ ...options, createProvider: () => provider }),
    ...extra,
  };
}

async function journal(runDir: string) {
  return (await readJournal(runDir)).events;
}

describe('runEval', () => {
  it('records one evaluation as a run of kind eval and returns its report', async () => {
    const experiment = await checksOnly();
    const result = await runEval(
      { experiment, overrides: { samples: 1 }, runsDir, projectRoot: FIXTURE },
      deps(createSimProvider({ provider: 'sim' })),
    );
    if (result.status !== 'done') throw new Error(result.status);
    expect(result.runId).toMatch(/-support-reply-[0-9a-z]{4}$/);
    expect(result.report).toMatchObject({
      status: 'ok',
      runId: result.runId,
      experiment: 'support-reply',
      samples: 1,
      simulated: false,
    });
    expect(result.report.seconds).toBeGreaterThan(0);
    expect(result.report.cost.byRole).toEqual({ generator: { usd: 0, calls: 6 } });
    expect(result.report.splits?.all.signals.judge).toBeNull();

    const events = await journal(result.runDir);
    expect(events.map((e) => (e.type === 'phase' ? `phase:${e.phase}` : e.type))).toEqual([
      'run_started',
      'iteration_started',
      'phase:generating',
      'phase:checking',
      'phase:scoring',
      'candidate_evaluated',
      'iteration_finished',
      'spend',
      'run_stopped',
    ]);
    expect(events[0]).toMatchObject({ kind: 'eval', overrides: { samples: 1 }, git: null, simulated: [] });
    const finished = events.find((e) => e.type === 'iteration_finished');
    expect(finished).toMatchObject({
      status: 'baseline',
      candidate: 0,
      train: result.report.splits?.train.total,
      holdout: result.report.splits?.holdout.total,
    });
    expect(events.at(-1)).toMatchObject({ type: 'run_stopped', reason: 'completed' });
    const manifest = JSON.parse(await readFile(join(result.runDir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      kind: 'eval',
      runId: result.runId,
      projectRoot: FIXTURE,
      experiment: { file: 'experiment.yaml', rubric: null },
    });
    expect(await readFile(join(result.runDir, 'best.md'), 'utf8')).toBe(experiment.prompt);
    const decision = JSON.parse(await readFile(join(result.runDir, 'iterations/0000/decision.json'), 'utf8'));
    expect(decision).toMatchObject({ status: 'baseline', scores: { all: result.report.splits?.all.total } });
    expect(existsSync(join(result.runDir, 'run.lock'))).toBe(false);
  });

  it('journals Ctrl-C as interrupted and returns without a report', async () => {
    const controller = new AbortController();
    const hanging: Provider = {
      name: 'anthropic',
      model: 'm',
      complete: (request) =>
        new Promise((_, reject) => {
          controller.abort();
          const fail = () => reject(new ProviderError('aborted', 'call aborted'));
          if (request.signal?.aborted) fail();
          request.signal?.addEventListener('abort', fail);
        }),
    };
    const result = await runEval(
      { experiment: await checksOnly(), overrides: {}, runsDir, projectRoot: FIXTURE },
      deps(hanging, { signal: controller.signal }),
    );
    expect(result.status).toBe('interrupted');
    const events = await journal(result.runDir);
    expect(events.find((e) => e.type === 'iteration_finished')).toMatchObject({
      status: 'interrupted',
      candidate: null,
    });
    expect(events.at(-1)).toMatchObject({ type: 'run_stopped', reason: 'interrupted' });
    expect(events.some((e) => e.type === 'candidate_evaluated')).toBe(false);
    expect(existsSync(join(result.runDir, 'run.lock'))).toBe(false);
  });

  it.each([
    [
      'auth',
      'ANTHROPIC_API_KEY was rejected (401) by Anthropic (claude-sonnet-4-5)',
      'E_AUTH',
      'ANTHROPIC_API_KEY was rejected (401) by Anthropic (claude-sonnet-4-5)',
    ],
    [
      'credit',
      'Anthropic (claude-sonnet-4-5): out of credit or quota (400)',
      'E_CREDIT',
      'Anthropic (claude-sonnet-4-5): out of credit or quota (400) (API key: ANTHROPIC_API_KEY)',
    ],
  ] as const)(
    'stops on %s failures with exit 1, naming the key variable',
    async (kind, said, code, message) => {
      const refusing: Provider = {
        name: 'anthropic',
        model: 'm',
        complete: async () => {
          throw new ProviderError(kind, said, { status: 401 });
        },
      };
      const error = await runEval(
        { experiment: await checksOnly(), overrides: {}, runsDir, projectRoot: FIXTURE },
        deps(refusing),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AutoresearchError);
      expect(error).toMatchObject({ code, exitCode: 1, message });
      expect((error as AutoresearchError).hint).toContain('ANTHROPIC_API_KEY');
      const [runId] = await readdir(runsDir).then((names) => names.filter((n) => !n.startsWith('.')));
      const events = await journal(join(runsDir, runId as string));
      expect(events.at(-1)).toMatchObject({ type: 'run_stopped', reason: kind, message });
      expect(events.find((e) => e.type === 'spend')).toMatchObject({ role: 'generator', calls: 6 });
    },
  );
});

describe('simulatedEvalRoles', () => {
  it('names the roles eval calls that are simulated, never the mutator', async () => {
    const experiment = await checksOnly();
    const sim = { provider: 'sim' as const };
    expect(simulatedEvalRoles(experiment)).toEqual([]);
    expect(simulatedEvalRoles({ ...experiment, models: { ...experiment.models, mutator: sim } })).toEqual([]);
    expect(
      simulatedEvalRoles({
        ...experiment,
        models: { generator: sim, mutator: sim, judge: sim, grader: { command: ['node', 'g.mjs'] } },
      }),
    ).toEqual(['generator', 'judge']);
  });
});
