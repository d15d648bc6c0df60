/**
 * `run <experiment> --from <run>[/<member>|/pool]`: the source run's prompt(s), read and checked
 * before the new run writes anything (docs/design/run-records.md). Refused, as usage errors: an
 * unknown run, a record that is not an optimization run, a prompt of another shape (another
 * experiment is fine when its optimised parts are the same), an unknown member, a run with no
 * best yet. A whole pool (`/pool`) needs a pareto run on both sides: the source's live members
 * other than its best become seeds of the new pool beside the baseline.
 */
import { AutoresearchError } from '../errors.js';
import { isRecord } from '../is-record.js';
import { optimisedNames } from '../experiment/part-texts.js';
import type { Experiment } from '../experiment/types.js';
import { openRepo, poolRef } from '../git/index.js';
import { resolveCommit } from '../git/refs.js';
import { hashPrompt } from '../prompt-hash.js';
import { type Chosen, readBest, readMember } from '../run/chosen-prompt.js';
import { readJournal } from '../run/journal.js';
import { readManifest } from '../run/manifest.js';
import { reduceRun } from '../run/reducer.js';
import { readMemberPrompt } from '../run/member-prompt.js';
import { type FromRef, parseFromRef, type RunFrom, type SeedFrom } from '../run/run-from.js';
import { searchStrategyOf } from '../experiment/acceptance.js';
import { liveMembers } from '../search/pool.js';
import { resolveRunRef } from '../run/run-ref.js';
import type { RunState } from '../run/run-state.js';

export interface ResolvedFrom {
  from: RunFrom;
  /** Said before the run starts (another experiment's run, a source still running). */
  notes: string[];
}

export async function resolveFrom(
  text: string,
  runsDir: string,
  experiment: Pick<Experiment, 'name' | 'shape' | 'dir' | 'agent'> & {
    config: Pick<Experiment['config'], 'search'>;
  },
): Promise<ResolvedFrom> {
  const ref = parseFromRef(text);
  if (ref.take === 'pool' && searchStrategyOf(experiment.config.search) !== 'pareto') {
    throw new AutoresearchError(
      'E_USAGE',
      `--from ${text}: a whole pool seeds a pareto search, and ${experiment.name} searches greedily`,
      {
        hint: `set \`strategy: pareto\` under search (it needs paired acceptance), or start from one prompt: its best (--from ${ref.runId}) or a member (--from ${ref.runId}/p<n>)`,
      },
    );
  }
  const run = await resolveRunRef(runsDir, ref.runId);
  const manifest = await readManifest(run.dir);
  if (manifest.kind !== 'run') {
    throw new AutoresearchError(
      'E_USAGE',
      `--from ${run.id}: it is ${manifest.kind === 'eval' ? 'an evaluation' : 'a calibration'}, not an optimization run`,
      {
        hint: 'name a run listed by `autoresearch runs` whose kind is run',
      },
    );
  }
  const source = manifest.experiment.name;
  const theirs = Object.keys(manifest.experiment.parts ?? {});
  const ours = optimisedNames(experiment.shape);
  // One optimised part is one text whatever its name; several must be the same parts in the same order.
  const sameShape = theirs.length === 0 ? ours.length === 1 : theirs.join('\n') === ours.join('\n');
  if (!sameShape) {
    const what = (names: readonly string[]) =>
      names.length <= 1 ? 'one optimised part' : `the optimised parts ${names.join(', ')}`;
    const whose =
      source === experiment.name ? `it was started when ${source}` : `it is a run of ${source}, whose prompt`;
    throw new AutoresearchError(
      'E_USAGE',
      `--from ${run.id}: ${whose} had ${what(theirs)}; ${experiment.name} has ${what(ours)}`,
      {
        hint: 'a run can start only from a prompt of the same shape; apply the prompt by hand and adapt it, or start from a run of this experiment',
      },
    );
  }
  // An agent's skill or instructions file and a prompt for model calls are different artifacts.
  const theirKind = artifactOf(manifest.config['agent']);
  const ourKind = artifactOf(experiment.agent);
  if (theirKind !== ourKind) {
    throw new AutoresearchError(
      'E_USAGE',
      `--from ${run.id}: its prompt is ${theirKind}; ${experiment.name} optimises ${ourKind}`,
      { hint: 'a run can start only from a prompt of the same shape; start from a run of this experiment' },
    );
  }
  const state = reduceRun((await readJournal(run.dir)).events);
  const notes: string[] = [];
  if (source !== experiment.name)
    notes.push(
      `--from ${run.id} is a run of ${source}; its prompt has the same shape as ${experiment.name}'s`,
    );
  if (state.journalStatus === 'open')
    notes.push(`run ${run.id} is still going; this run starts from what it holds now`);
  if (ref.take === 'pool' && state.pool === null) {
    throw new AutoresearchError(
      'E_USAGE',
      `--from ${run.id}/pool: run ${run.id} searched greedily and has no pool`,
      {
        hint: `start from its best (--from ${run.id}); a pool comes from a run with \`strategy: pareto\``,
      },
    );
  }
  const picked = await choose(run, state, ref);
  const git = await gitOf(experiment.dir, manifest.experiment.name, run.id, state);
  const at = ref.take !== 'member' || picked.member === null ? git.best : await git.member(picked.member);
  const seeds = ref.take === 'pool' ? await seedsOf(run.dir, state, picked, git) : undefined;
  return {
    from: {
      runId: run.id,
      experiment: source,
      take: ref.take,
      member: picked.member,
      iteration: picked.iteration,
      promptSha256: hashPrompt(picked.text),
      train: picked.train,
      commit: at?.commit ?? null,
      ref: at?.ref ?? null,
      text: picked.text,
      ...(seeds === undefined ? {} : { seeds }),
    },
    notes,
  };
}

/**
 * The pool's live members (those scored on its latest seed's scale) other than its best, in
 * member order; a member whose prompt is the best's, or an earlier seed's, is left out: the new
 * pool would hold the same prompt twice.
 */
async function seedsOf(dir: string, state: RunState, best: Picked, git: GitSource): Promise<SeedFrom[]> {
  const seen = new Set([hashPrompt(best.text)]);
  const seeds: SeedFrom[] = [];
  for (const member of liveMembers(state.pool?.members ?? [])) {
    if (member.id === best.member || seen.has(member.promptSha256)) continue;
    seen.add(member.promptSha256);
    const at = await git.member(member.id);
    seeds.push({
      member: member.id,
      iteration: member.iteration,
      promptSha256: member.promptSha256,
      train: member.train,
      commit: at?.commit ?? null,
      ref: at?.ref ?? null,
      text: await readMemberPrompt(dir, member),
    });
  }
  return seeds;
}

/** `an agent's skill` (docs/agents.md), or `a prompt for model calls`; from the config as the manifest holds it. */
function artifactOf(agent: unknown): string {
  const place = isRecord(agent) ? agent['place'] : undefined;
  return typeof place === 'string' ? `an agent's ${place}` : 'a prompt for model calls';
}

interface Picked extends Chosen {
  member: string | null;
}

async function choose(run: { id: string; dir: string }, state: RunState, ref: FromRef): Promise<Picked> {
  if (ref.take === 'member') return { ...(await readMember(run.dir, state, ref.member)), member: ref.member };
  // A pool starts from the pool's best member (a pareto run's best is one).
  const best = ref.take === 'pool' ? (state.pool?.best ?? null) : null;
  if (best !== null) return { ...(await readMember(run.dir, state, best)), member: best };
  if (state.incumbent === null || state.incumbent.train === null) {
    throw new AutoresearchError(
      'E_USAGE',
      `--from ${run.id}: the run has no best prompt yet (its baseline never finished)`,
      {
        hint: `resume it first (autoresearch resume ${run.id}), or start without --from`,
      },
    );
  }
  return { ...(await readBest(run, state)), member: state.pool?.best ?? null };
}

interface GitSource {
  /** The commit and ref holding the source run's best. */
  best: { commit: string; ref: string } | null;
  /** A pool member's commit, from its ref; null when git or the ref is missing. */
  member(id: string): Promise<{ commit: string; ref: string } | null>;
}

async function gitOf(dir: string, experiment: string, runId: string, state: RunState): Promise<GitSource> {
  const start = state.start?.git ?? null;
  const repo = start === null ? null : await openRepo(dir);
  const bestCommit = state.incumbent?.commit ?? start?.baselineCommit ?? start?.base ?? null;
  return {
    best:
      start === null || bestCommit === null
        ? null
        : { commit: bestCommit, ref: `refs/heads/${start.branch}` },
    async member(id) {
      if (repo === null) return null;
      const ref = poolRef(experiment, runId, id);
      const commit = await resolveCommit(repo, ref);
      return commit === null ? null : { commit, ref };
    },
  };
}
