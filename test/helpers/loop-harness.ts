/**
 * A whole run driven with fakes: a temp experiment (checks only unless a test adds a rubric or
 * expectations, judged and graded in-process), a real recorder and run folder, a model pool
 * whose providers are scripted, an injected clock, no git. The default experiment scores a prompt by the words it contains: the generator
 * echoes the rendered prompt and each of alpha/bravo/charlie/delta is one check, so a test
 * scripts scores by scripting the mutator's prompts.
 *
 *   train score   = (tokens present + 1 if FORBIDDEN is absent) / 5       (FORBIDDEN: a gate)
 *   holdout score = (tokens present + gate + 5 if OVERFIT is absent) / 10  (one holdout case)
 *
 *   const run = await runScripted({ mutator: mutatorScript([...]), budget: { iterations: 2 } });
 *   expect(statusesOf(run)).toEqual(['baseline', 'keep', 'discard']);
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import type { Experiment } from '../../src/experiment/types.js';
import type { Grader } from '../../src/grader/grader.js';
import type { Judge } from '../../src/judge/judge.js';
import type { LoopDeps } from '../../src/loop/loop-deps.js';
import { type LoopEnd, runLoop } from '../../src/loop/run-loop.js';
import { createRunRecorder, type RunRecorder } from '../../src/loop/run-recorder.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';
import { sha256Json } from '../../src/sha256.js';
import { modeOf, type RunEvent } from '../../src/run/events.js';
import { readJournal } from '../../src/run/journal.js';
import {
  createScriptedProviders,
  echoPrompt,
  type ScriptedHandler,
  type ScriptedProviders,
} from './scripted-provider.js';
import { strategyFor } from '../../src/search/choose-strategy.js';
import type { SearchStrategy } from '../../src/search/strategy.js';

export const RUN_ID = '20261129-2300-scripted-abcd';
export const TOKENS = ['alpha', 'bravo', 'charlie', 'delta'] as const;

/** The default experiment's prompt holding these words (and an optional tail). */
export function promptWith(words: readonly string[], tail = ''): string {
  return `Write a short note to {{name}} that uses these words: ${words.join(' ')}.${tail}\n`;
}

export interface TestClock {
  now(): Date;
  advance(seconds: number): void;
}

export function createTestClock(start = '2026-11-29T23:00:00.000Z'): TestClock {
  let ms = Date.parse(start);
  return {
    now: () => new Date(ms),
    advance: (seconds) => {
      ms += seconds * 1000;
    },
  };
}

export interface ScriptedRunOptions {
  mutator: ScriptedHandler;
  generator?: ScriptedHandler;
  prompt?: string;
  search?: Record<string, unknown>;
  budget?: Record<string, unknown>;
  /** Replaces the model entries' extra keys (e.g. `price`). */
  generatorEntry?: Record<string, unknown>;
  mutatorEntry?: Record<string, unknown>;
  clock?: TestClock;
  /** Consulted before each iteration, like the stop file. */
  stopRequested?: (recorder: RunRecorder) => boolean;
  controller?: AbortController;
  planEstimate?: LoopDeps['planEstimate'];
  /** A rubric (its markdown): the experiment is then judged by `judge`. */
  rubric?: string;
  judge?: Judge;
  /** Expectations per case id: the experiment is then graded by `grader`. */
  expectations?: Record<string, string[]>;
  grader?: Grader;
  /** The experiment's `judging:` settings (docs/design/prompt-shapes.md), e.g. drift anchors. */
  judging?: Record<string, unknown>;
  /** The search the loop is handed (default: the experiment's, as a run would pick it). */
  strategy?: SearchStrategy;
}

export interface ScriptedRun {
  end: LoopEnd;
  experiment: Experiment;
  recorder: RunRecorder;
  events: readonly RunEvent[];
  runDir: string;
  scripted: ScriptedProviders;
  pool: ModelPool;
  clock: TestClock;
}

const CASES = [
  { id: 't1', vars: { name: 'Ada' }, split: 'train' },
  { id: 't2', vars: { name: 'Bo' }, split: 'train' },
  { id: 't3', vars: { name: 'Cy' }, split: 'train' },
  {
    id: 'h1',
    vars: { name: 'Quillon' },
    split: 'holdout',
    checks: [{ type: 'not-icontains', value: 'OVERFIT', weight: 5 }],
  },
];

const scratchDirs: string[] = [];

/** Removes every folder the harness made; call it in afterAll. */
export async function cleanUpScriptedRuns(): Promise<void> {
  await Promise.all(scratchDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export async function writeScriptedExperiment(options: ScriptedRunOptions): Promise<string> {
  const scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), 'autoresearch-loop-')));
  scratchDirs.push(scratch);
  const dir = path.join(scratch, 'experiments', 'scripted');
  await mkdir(dir, { recursive: true });
  const config = {
    name: 'scripted',
    prompt: 'prompt.md',
    cases: 'cases.yaml',
    models: {
      generator: { provider: 'anthropic', model: 'gen', max_retries: 1, ...options.generatorEntry },
      mutator: { provider: 'anthropic', model: 'mut', max_retries: 0, ...options.mutatorEntry },
      ...(options.rubric === undefined ? {} : { judge: { provider: 'anthropic', model: 'jdg' } }),
      ...(options.expectations === undefined ? {} : { grader: { provider: 'anthropic', model: 'grd' } }),
    },
    ...(options.rubric === undefined ? {} : { rubric: 'rubric.md' }),
    checks: [
      ...TOKENS.map((value) => ({ type: 'icontains', value })),
      { type: 'not-icontains', value: 'FORBIDDEN', gate: true, name: 'no-forbidden' },
    ],
    search: { holdout: 0.25, min_improvement: 0.01, noise_repeats: 1, seed: 1, ...options.search },
    budget: { iterations: 3, hours: 8, patience: 10, ...options.budget },
    concurrency: 4,
    ...(options.judging === undefined ? {} : { judging: options.judging }),
  };
  await writeFile(path.join(dir, 'experiment.yaml'), stringify(config));
  const expectations = options.expectations ?? {};
  const cases = CASES.map((c) => ({
    ...c,
    ...(expectations[c.id] ? { expectations: expectations[c.id] } : {}),
  }));
  await writeFile(path.join(dir, 'cases.yaml'), stringify(cases));
  if (options.rubric !== undefined) await writeFile(path.join(dir, 'rubric.md'), options.rubric);
  await writeFile(path.join(dir, 'prompt.md'), options.prompt ?? promptWith(['alpha']));
  return scratch;
}

export async function runScripted(options: ScriptedRunOptions): Promise<ScriptedRun> {
  const scratch = await writeScriptedExperiment(options);
  const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };
  const { experiment } = await loadExperiment(path.join(scratch, 'experiments', 'scripted'), {
    cwd: scratch,
    env,
  });
  const runDir = path.join(scratch, 'runs', RUN_ID);
  await mkdir(runDir, { recursive: true });
  const clock = options.clock ?? createTestClock();
  const controller = options.controller ?? new AbortController();
  const scripted = createScriptedProviders({ gen: options.generator ?? echoPrompt, mut: options.mutator });
  const pool = createModelPool({
    models: experiment.models,
    concurrency: experiment.config.concurrency,
    env,
    signal: controller.signal,
    createProvider: scripted.factory,
    retry: { sleep: async () => undefined },
  });
  const recorder = createRunRecorder(runDir, [], clock.now);
  await recorder.emit({
    type: 'run_started',
    runId: RUN_ID,
    kind: 'run',
    experiment: experiment.name,
    configDigest: sha256Json(experiment.config),
    overrides: {},
    git: null,
    simulated: [],
  });
  try {
    const end = await runLoop({
      experiment,
      runId: RUN_ID,
      runDir,
      recorder,
      strategy: options.strategy ?? strategyFor({ experiment, recorder }),
      pool,
      git: null,
      now: clock.now,
      signal: controller.signal,
      stopRequested: () => options.stopRequested?.(recorder) ?? false,
      env,
      ...(options.judge ? { judge: options.judge } : {}),
      ...(options.grader ? { grader: options.grader } : {}),
      ...(options.planEstimate ? { planEstimate: options.planEstimate } : {}),
    });
    // The journal as written: the recorder keeps no copy of the events.
    const { events } = await readJournal(runDir);
    return { end, experiment, recorder, events, runDir, scripted, pool, clock };
  } finally {
    await pool.close();
  }
}

/** The status of every iteration, in order. */
export function statusesOf(run: ScriptedRun): string[] {
  return run.recorder.state().iterations.map((it) => it.status);
}

/**
 * The journal as short lines, phase events left out (they report progress, not decisions):
 * `start 1 focused`, `proposal 1/0`, `evaluated 1/0 train 0.600 holdout 0.700`,
 * `finish 1 keep`, `final baseline 0.400 best 0.600`, `stopped iterations`, ….
 */
export function timelineOf(events: readonly RunEvent[]): string[] {
  return events.flatMap((event): string[] => {
    switch (event.type) {
      case 'phase':
        return [];
      case 'run_started':
        return ['run_started'];
      case 'iteration_started':
        return [`start ${event.iteration} ${modeOf(event)}`];
      case 'proposal':
        return [`proposal ${event.iteration}/${event.candidate}`];
      case 'candidate_evaluated': {
        const repeat = event.repeat === undefined ? '' : ` repeat ${event.repeat}`;
        const gate = event.gateFailure === null ? '' : ' gate-failure';
        return [
          `evaluated ${event.iteration}/${event.candidate}${repeat} train ${fixed(event.scores.train.total)} holdout ${fixed(event.scores.holdout.total)}${gate}`,
        ];
      }
      case 'noise_margin':
        return [`noise train ${fixed(event.train)} holdout ${fixed(event.holdout)}`];
      case 'spend':
        return [`spend ${event.role} ${event.calls}`];
      case 'iteration_finished':
        return [`finish ${event.iteration} ${event.status}${event.errorKind ? ` ${event.errorKind}` : ''}`];
      case 'commit':
        return [`commit ${event.iteration}`];
      case 'final_evaluation':
        return [`final baseline ${fixed(event.baseline.train)} best ${fixed(event.best.train)}`];
      case 'run_stopped':
        return [`stopped ${event.reason}`];
      default:
        return [event.type];
    }
  });
}

/** The `iteration_finished` event of one iteration. */
export function finishedEvent(events: readonly RunEvent[], iteration: number) {
  const found = events.find(
    (e): e is Extract<RunEvent, { type: 'iteration_finished' }> =>
      e.type === 'iteration_finished' && e.iteration === iteration,
  );
  if (!found) throw new Error(`iteration ${iteration} never finished`);
  return found;
}

function fixed(value: number | null): string {
  return value === null ? '-' : value.toFixed(3);
}
