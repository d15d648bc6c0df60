/**
 * A whole run of an experiment with TWO optimisable parts (docs/design/prompt-shapes.md) on a real
 * repository: the baseline commit and every keep touch only the files of the parts that changed
 * (git diff of every commit), each keep names its parts in a trailer, and edits that break a part's
 * rules (a dropped placeholder, a fixed part named) are sent back with the reason and asked again.
 * Scripted providers: the generator echoes the whole request, each token is one check.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import { partPaths, splitPromptText } from '../../src/experiment/part-texts.js';
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
const BASE_SYSTEM = 'You write short notes for the customers of a bakery.\n';
const BASE_USER = 'Write the note for {{name}} now.\n';

/** A mutator reply in the several-parts form. */
const edit = (hypothesis: string, edits: Record<string, string>) => JSON.stringify({ hypothesis, edits });

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('a run with two optimisable parts', () => {
  it('commits only the parts that changed and re-asks edits that break a part’s rules', async () => {
    const config = {
      name: 'parts',
      prompt: {
        system: { file: 'system.md' },
        messages: [
          { role: 'user', content: 'Customer tier: {{tier}}' },
          { role: 'user', content: { file: 'user.md' } },
        ],
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
    const cases = ['Ada', 'Bo', 'Cy', 'Di'].map((name) => ({
      id: name.toLowerCase(),
      vars: { name, tier: 'gold' },
    }));
    repo = await createTempRepo({
      files: {
        [`${DIR}/experiment.yaml`]: stringify(config),
        [`${DIR}/cases.yaml`]: stringify(cases),
        [SYSTEM]: BASE_SYSTEM,
        [USER]: BASE_USER,
      },
    });
    // An uncommitted edit of one part: the baseline commit holds it, and only it.
    const startUser = 'Write the note for {{name}} now, kindly.\n';
    await repo.write(USER, startUser);
    const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' };
    const { experiment } = await loadExperiment(repo.path(DIR), { cwd: repo.dir, env });
    const names = ['system', 'messages[1]'];
    expect(splitPromptText(experiment.prompt, names)).toEqual({
      system: BASE_SYSTEM,
      'messages[1]': startUser,
    });

    const git = await openRepo(repo.dir, { env: repo.env });
    if (git === null) throw new Error('expected a repository');
    const paths = partPaths(experiment.shape);
    const branch = await createRunBranch({
      repo: git,
      experiment: experiment.name,
      runId: RUN_ID,
      promptPath: experiment.promptPath,
      promptText: experiment.prompt,
      ...(paths ? { partPaths: paths } : {}),
    });

    const system1 = 'You write short notes for the customers of a bakery. Use alpha.\n';
    const user2 = 'Write the note for {{name}} now, kindly, with bravo.\n';
    const system3 = 'You write short notes for the customers of a bakery. Use alpha and charlie.\n';
    const user3 = 'Write the note for {{name}} ({{tier}}) now, kindly, with bravo.\n';
    const mutator = mutatorScript([
      edit('Name the first word in the system prompt.', { system: system1 }),
      // Iteration 2: a dropped placeholder, then a fixed part, then a valid edit.
      edit('Drop the name.', { 'messages[1]': 'Write the note now, with bravo.\n' }),
      edit('Edit the tier line.', { 'messages[0]': 'Customer tier: {{tier}}. Use bravo.' }),
      edit('Ask for the second word in the user message.', { 'messages[1]': user2 }),
      // Iteration 3: both parts at once (the user message takes up the tier placeholder).
      edit('The third word, and the tier.', { system: system3, 'messages[1]': user3 }),
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

    expect(recorder.state().iterations.map((it) => it.status)).toEqual(['baseline', 'keep', 'keep', 'keep']);
    expect(mutator.remaining()).toBe(0);

    // The rejected edits came back with the reason, naming the part.
    const calls = scripted.callsTo('mut').map((c) => c.request.messages);
    expect(calls[2]?.at(-1)?.content).toContain(
      'That reply could not be used: in part `messages[1]`: your prompt dropped {{name}}',
    );
    expect(calls[3]?.at(-1)?.content).toContain(
      '`messages[0]` is a fixed part: it is sent as it is and cannot be edited',
    );
    // Every generator request of the best prompt carried both candidate parts around the fixed one.
    const best = scripted
      .callsTo('gen')
      .map((c) => c.request)
      .filter((r) => r.system === system3);
    expect(best.length).toBeGreaterThan(0);
    for (const request of best)
      expect(request.messages.map((m) => m.content)).toEqual([
        'Customer tier: gold',
        expect.stringMatching(/^Write the note for \w+ \(gold\) now, kindly, with bravo\.\n$/),
      ]);

    // One commit per keep (plus the baseline), each touching only the changed parts' files.
    const commits = (await repo.git(['rev-list', '--reverse', `${branch.base}..${branch.branch}`])).split(
      '\n',
    );
    const touched = await Promise.all(
      commits.map((sha) => repo?.git(['diff-tree', '--no-commit-id', '--name-only', '-r', `${sha}^`, sha])),
    );
    expect(touched).toEqual([USER, SYSTEM, USER, `${SYSTEM}\n${USER}`]);
    const trailers = await Promise.all(
      commits.map(async (sha) =>
        (
          await repo?.git(['log', '-1', '--format=%(trailers:key=Autoresearch-Parts,valueonly)', sha])
        )?.trim(),
      ),
    );
    expect(trailers).toEqual(['', 'system', 'messages[1]', 'system, messages[1]']);
    expect(await repo.git(['show', `${branch.branch}:${SYSTEM}`])).toBe(system3.trimEnd());
    expect(await repo.git(['show', `${branch.branch}:${USER}`])).toBe(user3.trimEnd());
    // The working tree and the checked-out branch are untouched.
    expect(await repo.read(USER)).toBe(startUser);
  });
});
