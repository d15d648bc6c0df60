/**
 * A pareto run (docs/design/pareto-search.md) written the way the loop journals one, without
 * running the loop: a real run branch in a temporary repository (createRunBranch), manifest.json,
 * each member's prompt.md in its candidate folder, and the journal through the run recorder —
 * run_started, then `candidate_decided` and `pool_member` for every member. For pool refs, prune,
 * and apply / diff of members.
 *
 *   const run = await writePoolRun({ repo, runsDir, members: [{ id: 'p0', … }, …] });
 *   await syncPoolRefs(run.deps, run.recorder.state());
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { joinPartTexts } from '../../src/experiment/part-texts.js';
import type { PromptShape } from '../../src/experiment/types.js';
import { createRunBranch, type GitRepo, openRepo, type RunBranch } from '../../src/git/index.js';
import type { PoolRefsDeps } from '../../src/git/pool-refs.js';
import { hashPrompt } from '../../src/prompt-hash.js';
import { createRunRecorder, type RunRecorder } from '../../src/loop/run-recorder.js';
import type { RunEventBody } from '../../src/run/events.js';
import { writeManifest } from '../../src/run/manifest.js';
import { candidatePaths } from '../../src/run/paths.js';
import { RECORD_VERSION } from '../../src/run/record-version.js';
import { sha256Hex } from '../../src/sha256.js';
import type { TempRepo } from './temp-repo.js';

export interface PoolRunMember {
  id: string;
  iteration: number;
  candidate: number;
  kind: 'seed' | 'mutation' | 'merge';
  parents: string[];
  /** The prompt (a parts document with several parts: use joinPartTexts). */
  text: string;
  hypothesis?: string;
  train?: number;
}

export interface PoolRunOptions {
  repo: TempRepo;
  runsDir: string;
  runId?: string;
  experiment?: string;
  /** The prompt file relative to the repository root (one part). */
  prompt?: string;
  /** Several optimised parts: part name → file relative to the repository root, in request order. */
  parts?: Record<string, string>;
  members: PoolRunMember[];
}

export interface PoolRun {
  id: string;
  dir: string;
  git: GitRepo;
  branch: RunBranch;
  recorder: RunRecorder;
  /** What syncPoolRefs needs, as the loop's deps give it. */
  deps: PoolRefsDeps;
}

export const POOL_RUN_ID = '20261201-2100-cold-email-p00l';

export async function writePoolRun(options: PoolRunOptions): Promise<PoolRun> {
  const { repo } = options;
  const id = options.runId ?? POOL_RUN_ID;
  const experiment = options.experiment ?? 'cold-email';
  const prompt = options.prompt ?? `experiments/${experiment}/prompt.md`;
  const dir = join(options.runsDir, id);
  const git = await openRepo(repo.dir, { env: repo.env });
  if (git === null) throw new Error(`${repo.dir} is not a git repository`);
  const parts = options.parts;
  const partTexts = parts
    ? Object.fromEntries(
        await Promise.all(Object.entries(parts).map(async ([n, f]) => [n, await repo.read(f)])),
      )
    : undefined;
  const promptText = partTexts ? joinPartTexts(partTexts) : await repo.read(prompt);
  const partPaths = parts
    ? Object.fromEntries(Object.entries(parts).map(([n, f]) => [n, repo.path(f)]))
    : undefined;
  const promptPath = repo.path(parts ? (Object.values(parts)[0] as string) : prompt);
  const branch = await createRunBranch({
    repo: git,
    experiment,
    runId: id,
    promptPath,
    promptText,
    ...(partPaths ? { partPaths } : {}),
  });
  const shape: PromptShape = {
    parts: parts
      ? Object.entries(parts).map(([name, file]) => ({
          name,
          role: name === 'system' ? ('system' as const) : ('user' as const),
          text: partTexts?.[name] as string,
          path: repo.path(file),
          optimise: true,
        }))
      : [{ name: 'prompt', role: 'user', text: promptText, path: promptPath, optimise: true }],
  };
  const digest = sha256Hex('pool-run');
  await mkdir(dir, { recursive: true });
  await writeManifest(dir, {
    version: RECORD_VERSION,
    kind: 'run',
    runId: id,
    createdAt: '2026-12-01T21:00:00.000Z',
    toolVersion: '0.1.0',
    projectRoot: repo.dir,
    experiment: {
      name: experiment,
      file: `experiments/${experiment}/experiment.yaml`,
      prompt: parts ? (Object.values(parts)[0] as string) : prompt,
      ...(parts && partTexts
        ? {
            parts: Object.fromEntries(
              Object.entries(parts).map(([n, f]) => [
                n,
                { file: f, sha256: sha256Hex(partTexts[n] as string) },
              ]),
            ),
          }
        : {}),
      cases: `experiments/${experiment}/cases.yaml`,
      rubric: null,
    },
    config: {},
    overrides: {},
    hashes: { prompt: sha256Hex(promptText), cases: digest, rubric: null, checks: digest },
    caseHashes: { a: digest },
    rubricCriteria: null,
    checks: [],
    models: {},
    git: { base: branch.base, branch: branch.branch },
  });
  const recorder = createRunRecorder(dir, [], () => new Date('2026-12-01T21:00:00.000Z'));
  await recorder.emit({
    type: 'run_started',
    runId: id,
    kind: 'run',
    experiment,
    configDigest: digest,
    overrides: {},
    git: { branch: branch.branch, base: branch.base, baselineCommit: branch.baselineCommit ?? null },
    simulated: [],
  });
  await journalMembers(recorder, dir, options.members);
  return {
    id,
    dir,
    git,
    branch,
    recorder,
    deps: {
      git: { repo: git, promptPath },
      runDir: dir,
      runId: id,
      experiment: { name: experiment, shape },
    },
  };
}

/** Write members' prompt.md and journal them (`candidate_decided`, `pool_member`) as an iteration's closing append would. */
export async function journalMembers(
  recorder: RunRecorder,
  dir: string,
  members: readonly PoolRunMember[],
): Promise<void> {
  for (const member of members) {
    const file = candidatePaths(dir, member.iteration, member.candidate).prompt;
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, member.text);
    const train = member.train ?? 0.5;
    const events: RunEventBody[] = [];
    if (member.kind !== 'seed')
      events.push({
        type: 'candidate_decided',
        iteration: member.iteration,
        candidate: member.candidate,
        kind: member.kind,
        parents: member.parents,
        status: 'pooled',
        member: member.id,
        train,
        holdout: null,
        delta: 0.05,
        hypothesis: member.hypothesis ?? null,
        promptSha256: hashPrompt(member.text),
      });
    events.push({
      type: 'pool_member',
      member: member.id,
      iteration: member.iteration,
      candidate: member.candidate,
      kind: member.kind,
      parents: member.parents,
      promptSha256: hashPrompt(member.text),
      train,
      holdout: null,
      eligible: true,
      cases: { a: train },
    });
    await recorder.emit(...events);
  }
}
