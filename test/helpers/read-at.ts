/** Reading a file as a commit holds it, for tests that check what a run committed. */
import { readEntry } from '../../src/git/objects.js';
import type { GitRepo } from '../../src/git/open-repo.js';

/**
 * The content of `path` (relative to the repository root, `/`-separated) at commit `sha`,
 * exactly as stored (no checkout filters), or null when the commit has no such file.
 */
export async function readFileAt({
  repo,
  sha,
  path,
}: {
  repo: GitRepo;
  sha: string;
  path: string;
}): Promise<string | null> {
  const entry = await readEntry(repo, sha, path);
  if (entry === null || entry.type !== 'blob') return null;
  return (await repo.git(['cat-file', 'blob', entry.oid])).stdout;
}
