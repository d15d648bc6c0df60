/**
 * A whole run of an experiment with prompt parts (docs/design/prompt-shapes.md, phase 1), on a real
 * repository: the mutator may change only `system` (the one optimisable part), so the run branch's
 * baseline commit and every keep touch `system.md` alone — `user.md` and the other files
 * never change — and the mutator sees the fixed parts as read-only context by name. Scripted
 * providers: the generator echoes the whole request, each token is one check.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import { createRunBranch, openRepo } from '../../src/git/index.js';
import { runLoop } from '../../src/loop/run-loop.js';
import { createRunRecorder } from '../../src/loop/run-recorder.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { sha256Json } from '../../src/sha256.js';
import { createTestClock, RUN_ID } from '../helpers/loop-harness.js';
import { createScriptedProviders, mutatorScript } from '../helpers/scripted-provider.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';
import { strategyFor } from '../../src/search/choose-strategy.js';

const DIR = 'experiments/parts';
const SYSTEM = `${DIR}/system.md`;
const USER = `${DIR}/user.md`;

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('a run whose mutator may change only the system prompt', () => {
  it('commits only system.md, never user.md, and shows the fixed parts to the mutator', async () => {
    const config = {
      name: 'parts',
      prompt: {
        system: { file: 'system.md' },
        messages: [
          { role: 'user', content: 'Customer: {{name}}' },
          { role: 'user', content: { file: 'user.md' } },
        ],
        optimise: ['system'],
      },
      cases: 'cases.yaml',
      models: {
        generator: { provider: 'anthropic', model: 'gen', max_retries: 0 },
        mutator: { provider: 'anthropic', model: 'mut', max_retries: 0 },
      },
      checks: ['alpha', 'bravo', 'charlie'].map((value) => ({ type: 'icontains', value })),
      search: { holdout: 0.25, min_improvement: 0.01, noise_repeats: 1, seed: 1 },
      budget: { iterations: 3, hours: 8, patience: 10 },
      concurrency: 4,
    };
    const cases = ['Ada', 'Bo', 'Cy', 'Di'].map((name) => ({ id: name.toLowerCase(), vars: { name } }));
    repo = await createTempRepo({
      files: {
        [`${DIR}/experiment.yaml`]: stringify(config),
        [`${DIR}/cases.yaml`]: stringify(cases),
        [SYSTEM]: 'You write short notes for the customers of a bakery.\n',
        [USER]: 'Write the note now.\n',
      },
      config: { 'user.name': 'Ada Lovelace', 'user.email': 'ada@example.com' },
    });
    // An uncommitted edit: the run's baseline commit holds the working-tree system prompt.
    await repo.write(SYSTEM, 'You write short notes for the customers of a bakery. (edited)\n');
    const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };
    const { experiment } = await loadExperiment(repo.path(DIR), { cwd: repo.dir, env });
    expect(experiment.promptPath).toBe(repo.path(SYSTEM));

    const git = await openRepo(repo.dir, { env: repo.env });
    if (git === null) throw new Error('expected a repository');
    const branch = await createRunBranch({
      repo: git,
      experiment: experiment.name,
      runId: RUN_ID,
      promptPath: experiment.promptPath,
      promptText: experiment.prompt,
    });

    const mutator = mutatorScript([
      {
        hypothesis: 'Name the first word.',
        prompt: 'You write short notes for the customers of a bakery. Use alpha and bravo.\n',
      },
      {
        hypothesis: 'Drop a word.',
        prompt: 'You write short notes for the customers of a bakery. Use alpha.\n',
      },
      {
        hypothesis: 'All three.',
        prompt: 'You write short notes for the customers of a bakery. Use alpha, bravo and charlie.\n',
      },
    ]);
    const scripted = createScriptedProviders({
      gen: ({ request }) => [request.system ?? '', ...request.messages.map((m) => m.content)].join('\n'),
      mut: mutator,
    });
    const controller = new AbortController();
    const pool = createModelPool({
      models: experiment.models,
      concurrency: 4,
      env,
      signal: controller.signal,
      createProvider: scripted.factory,
      retry: { sleep: async () => undefined },
    });
    const runDir = path.join(path.dirname(repo.dir), 'runs', RUN_ID);
    const clock = createTestClock();
    await mkdir(runDir, { recursive: true });
    const recorder = createRunRecorder(runDir, [], clock.now);
    await recorder.emit({
      type: 'run_started',
      runId: RUN_ID,
      kind: 'run',
      experiment: experiment.name,
      configDigest: sha256Json(experiment.config),
      overrides: {},
      git: { branch: branch.branch, base: branch.base, baselineCommit: branch.baselineCommit ?? null },
      simulated: [],
    });
    try {
      await runLoop({
        experiment,
        runId: RUN_ID,
        runDir,
        recorder,
        strategy: strategyFor({ experiment, recorder }),
        pool,
        git: { repo: git, branch: branch.branch, promptPath: experiment.promptPath },
        now: clock.now,
        signal: controller.signal,
        stopRequested: () => false,
        env,
      });
    } finally {
      await pool.close();
    }

    const state = recorder.state();
    expect(state.iterations.map((it) => it.status)).toEqual(['baseline', 'keep', 'discard', 'keep']);
    // Every generator request carried the fixed parts around the candidate system prompt.
    // (The final check evaluates baseline and best side by side: find the best's request by its system prompt.)
    const requests = scripted.callsTo('gen').map((c) => c.request);
    const best = requests.filter(
      (r) =>
        r.system === 'You write short notes for the customers of a bakery. Use alpha, bravo and charlie.\n',
    );
    expect(best.length).toBeGreaterThan(0);
    for (const request of requests)
      expect(request.messages.slice(1)).toEqual([{ role: 'user', content: 'Write the note now.\n' }]);

    const commits = (await repo.git(['rev-list', '--reverse', `${branch.base}..${branch.branch}`])).split(
      '\n',
    );
    expect(commits).toHaveLength(3); // the baseline (the working-tree system prompt) and two keeps
    expect(await repo.git(['show', `${commits[0]}:${SYSTEM}`])).toBe(
      'You write short notes for the customers of a bakery. (edited)',
    );
    for (const sha of commits) {
      const touched = await repo.git(['diff-tree', '--no-commit-id', '--name-only', '-r', `${sha}^`, sha]);
      expect(touched, sha).toBe(SYSTEM);
      expect(await repo.git(['show', `${sha}:${USER}`])).toBe('Write the note now.');
    }
    expect(await repo.git(['show', `${branch.branch}:${SYSTEM}`])).toBe(
      'You write short notes for the customers of a bakery. Use alpha, bravo and charlie.',
    );

    // The mutator saw which part it changes and the fixed parts by name, read-only.
    const asked = scripted.callsTo('mut')[0]?.request.messages[0]?.content ?? '';
    expect(asked).toContain('## Current prompt: part `system`, the one you are changing');
    expect(asked).toContain('### messages[0] (fixed, user)');
    expect(asked).toContain('### messages[1] (fixed, user)');
    expect(asked).toContain('Write the note now.');
    expect(asked).toContain('system (yours), messages[0], messages[1]');
  });
});
