/**
 * The pool's lineage in git (docs/design/pareto-search.md). Each member of a pareto run gets one
 * commit under `refs/autoresearch/<experiment>/<run-id>/pool/p<n>`: the run's start tree with the
 * member's prompt file(s) written, whose parents are its parent members' commits (a merge has two;
 * p0's is the commit the run branch started at). The journal is the truth; these refs are derived
 * from it, so syncing is idempotent and a resume (or a prune) can always make them again.
 * Plumbing only: no checkout, no index but a throw-away one, HEAD and branches never written.
 */
import { AutoresearchError } from '../errors.js';
import { partPaths } from '../experiment/part-texts.js';
import type { PromptShape } from '../experiment/types.js';
import type { PoolMemberRecord, PoolState, RunStartInfo } from '../run/run-state.js';
import { readMemberPrompt } from '../run/member-prompt.js';
import { memberNumber } from '../run/member-id.js';
import { formatPoolMessage } from './commit-message.js';
import { commitTree, treeWithFiles } from './objects.js';
import type { GitRepo } from './open-repo.js';
import { promptFiles } from './prompt-files.js';
import { createRef, deleteRefs } from './refs.js';
import { parseRunTrailers } from './trailers.js';

/** `refs/autoresearch/<experiment>/<run-id>/pool/`: every pool ref of one run starts with it. */
export function poolRefPrefix(experiment: string, runId: string): string {
  return `refs/autoresearch/${experiment}/${runId}/pool/`;
}

export function poolRef(experiment: string, runId: string, member: string): string {
  return `${poolRefPrefix(experiment, runId)}${member}`;
}

/** A pool ref as git holds it. */
export interface PoolRef {
  member: string;
  ref: string;
  sha: string;
  /** The commit's parents, in order. */
  parents: string[];
  /** The commit's `Autoresearch-Run` and `Autoresearch-Pool` trailers. */
  runId: string | undefined;
  pool: string | undefined;
}

/** The run's pool refs, in member order (p0, p1, …, p10). One git call. */
export async function listPoolRefs(repo: GitRepo, experiment: string, runId: string): Promise<PoolRef[]> {
  const prefix = poolRefPrefix(experiment, runId);
  const result = await repo.git([
    'for-each-ref',
    '--format=%(refname)%1f%(objectname)%1f%(parent)%1f%(trailers:only,unfold)%1e',
    prefix,
  ]);
  const refs: PoolRef[] = [];
  for (const record of result.stdout.split('\x1e')) {
    const [ref, sha, parents, trailers] = record.replace(/^\n+/, '').split('\x1f');
    if (ref === undefined || sha === undefined || !ref.startsWith(prefix)) continue;
    const member = ref.slice(prefix.length);
    if (!/^p(0|[1-9]\d*)$/.test(member)) continue;
    const parsed = parseRunTrailers(trailers ?? '');
    refs.push({
      member,
      ref,
      sha,
      parents: (parents ?? '').split(' ').filter(Boolean),
      runId: parsed.runId,
      pool: parsed.pool,
    });
  }
  return refs.sort((a, b) => memberNumber(a.member) - memberNumber(b.member));
}

/** Delete every pool ref of the run (each only if unchanged since read); returns how many. */
export async function deletePoolRefs(repo: GitRepo, experiment: string, runId: string): Promise<number> {
  const refs = await listPoolRefs(repo, experiment, runId);
  await deleteRefs(repo, refs);
  return refs.length;
}

/** What syncPoolRefs needs of the loop's deps (LoopDeps has all of it). */
export interface PoolRefsDeps {
  /** Null: commits are off, and so are pool refs. */
  git: { repo: GitRepo; promptPath: string } | null;
  runDir: string;
  runId: string;
  experiment: { name: string; shape: PromptShape };
}

/** What syncPoolRefs reads of the run state: where the run started and its pool. */
export interface PoolRefsState {
  start: Pick<RunStartInfo, 'git'> | null;
  pool: PoolState | null;
}

/**
 * Give every journaled pool member that has no ref yet its commit and ref, parents first
 * (ascending ids). Refs already there are checked, not rewritten: one that is not this run's
 * commit for that member, with the lineage the journal says, is an E_GIT error. Returns the
 * members whose refs were created. A greedy run (no pool) or a run without git: nothing to do.
 */
export async function syncPoolRefs(deps: PoolRefsDeps, state: PoolRefsState): Promise<string[]> {
  const { git } = deps;
  const start = state.start?.git ?? null;
  const pool = state.pool;
  if (git === null || start === null || pool === null || pool.members.length === 0) return [];
  const { repo } = git;
  const experiment = deps.experiment.name;
  const root = start.baselineCommit ?? start.base;
  const paths = partPaths(deps.experiment.shape);
  const existing = new Map(
    (await listPoolRefs(repo, experiment, deps.runId)).map((ref) => [ref.member, ref] as const),
  );
  // A ref deleted by hand while later members' refs still hold its commit: point it there again,
  // since a new commit would not be the parent those refs name.
  const kept =
    existing.size < pool.members.length
      ? await findKeptMemberCommits(repo, [...existing.values()], root, deps.runId)
      : new Map<string, PoolRef>();
  const commits = new Map<string, string>();
  const created: string[] = [];
  const members = [...pool.members].sort((a, b) => memberNumber(a.id) - memberNumber(b.id));
  for (const member of members) {
    const parents = member.parents.length === 0 ? [root] : member.parents.map((p) => parentCommit(member, p));
    const found = existing.get(member.id);
    if (found !== undefined) {
      assertMemberCommit(found, member, parents, deps.runId);
      commits.set(member.id, found.sha);
      continue;
    }
    const restored = kept.get(member.id);
    if (restored !== undefined) {
      assertMemberCommit(restored, member, parents, deps.runId);
      await createRef(repo, {
        ref: restored.ref,
        sha: restored.sha,
        reason: `autoresearch: pool ${member.id} of run ${deps.runId}, restored`,
      });
      commits.set(member.id, restored.sha);
      created.push(member.id);
      continue;
    }
    const text = await readMemberPrompt(deps.runDir, member);
    const files = promptFiles(repo, {
      promptPath: git.promptPath,
      promptText: text,
      ...(paths ? { partPaths: paths } : {}),
    });
    const { tree } = await treeWithFiles(repo, root, files);
    const message = formatPoolMessage({
      experiment,
      runId: deps.runId,
      member: member.id,
      iteration: member.iteration,
      kind: member.kind,
      parents: member.parents,
      train: member.train,
      hypothesis: pool.decisions.find((d) => d.member === member.id)?.hypothesis ?? null,
    });
    const sha = await commitTree(repo, { tree, parents, message });
    await createRef(repo, {
      ref: poolRef(experiment, deps.runId, member.id),
      sha,
      reason: `autoresearch: pool ${member.id} of run ${deps.runId}`,
    });
    commits.set(member.id, sha);
    created.push(member.id);
  }
  return created;

  function parentCommit(member: PoolMemberRecord, parent: string): string {
    const sha = commits.get(parent);
    if (sha !== undefined) return sha;
    throw new AutoresearchError(
      'E_RUN_RECORD',
      `pool member ${member.id} names parent ${parent}, which the journal does not hold before it`,
      { hint: 'the journal (events.jsonl) was edited or damaged; pool refs cannot show this lineage' },
    );
  }
}

/**
 * This run's member commits behind the refs that exist (their ancestors down to the run start), by
 * their `Autoresearch-Pool` trailer, as the refs they belong at. One git call.
 */
async function findKeptMemberCommits(
  repo: GitRepo,
  refs: readonly PoolRef[],
  root: string,
  runId: string,
): Promise<Map<string, PoolRef>> {
  const found = new Map<string, PoolRef>();
  const first = refs[0];
  if (first === undefined) return found;
  const prefix = first.ref.slice(0, first.ref.length - first.member.length);
  const result = await repo.git([
    'log',
    '--format=%H%x1f%P%x1f%(trailers:only,unfold)%x1e',
    ...refs.map((ref) => ref.sha),
    `^${root}`,
  ]);
  for (const record of result.stdout.split('\x1e')) {
    const [sha, parents, trailers] = record.replace(/^\n+/, '').split('\x1f');
    if (sha === undefined || sha === '') continue;
    const parsed = parseRunTrailers(trailers ?? '');
    if (parsed.runId !== runId || parsed.pool === undefined || found.has(parsed.pool)) continue;
    found.set(parsed.pool, {
      member: parsed.pool,
      ref: `${prefix}${parsed.pool}`,
      sha,
      parents: (parents ?? '').split(' ').filter(Boolean),
      runId: parsed.runId,
      pool: parsed.pool,
    });
  }
  return found;
}

/** An existing ref must be this run's commit of that member, on the lineage the journal holds. */
function assertMemberCommit(
  found: PoolRef,
  member: PoolMemberRecord,
  parents: readonly string[],
  runId: string,
): void {
  const ours = found.runId === runId && found.pool === member.id;
  const sameLineage =
    found.parents.length === parents.length && found.parents.every((p, i) => p === parents[i]);
  if (ours && sameLineage) return;
  const what = ours
    ? `its parents (${found.parents.join(', ') || 'none'}) are not the commits of ${member.parents.join(' and ') || 'the run start'}`
    : `commit ${found.sha} is not run ${runId}'s commit for ${member.id}`;
  throw new AutoresearchError('E_GIT', `pool ref ${found.ref} points elsewhere: ${what}`, {
    hint: `something other than this run wrote it; delete it with \`git update-ref -d ${found.ref}\` (or \`autoresearch prune ${runId}\` for all of them) and the run makes it again`,
  });
}
