/**
 * A user's project for the durability tests: a real temporary git repository holding
 * `experiments/<name>/` copied from test/fixtures/kill/<name>/, and the run folder a run
 * started there writes to (`runs/` in the project root).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempRepo, readTreeBytes, type TempRepo } from '../../helpers/temp-repo.js';
import { REPO_ROOT } from './cli.js';

export const FIXTURE = 'release-note';

export interface Project {
  repo: TempRepo;
  dir: string;
  runsDir: string;
  experiment: string;
  /** The prompt file, relative to the repository root. */
  promptPath: string;
  env: NodeJS.ProcessEnv;
  /** The one run started in this project (its id and folder). */
  onlyRun(): Promise<{ id: string; dir: string }>;
  cleanup(): Promise<void>;
}

export async function createProject(
  options: { fixture?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Project> {
  const fixture = options.fixture ?? FIXTURE;
  const source = join(REPO_ROOT, 'test', 'fixtures', 'kill', fixture);
  const files: Record<string, string> = {};
  for (const [path, bytes] of await readTreeBytes(source)) {
    files[`experiments/${fixture}/${path}`] = bytes.toString('utf8');
  }
  files['README.md'] = 'A project that uses autoresearch.\n';
  const repo = await createTempRepo({ files });
  const runsDir = join(repo.dir, 'runs');
  return {
    repo,
    dir: repo.dir,
    runsDir,
    experiment: fixture,
    promptPath: `experiments/${fixture}/prompt.md`,
    env: { ...repo.env, ...(options.env ?? {}) },
    async onlyRun() {
      const ids = (await readdir(runsDir, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
      if (ids.length !== 1) throw new Error(`expected one run in ${runsDir}, found ${ids.join(', ')}`);
      const id = ids[0] as string;
      return { id, dir: join(runsDir, id) };
    },
    cleanup: () => repo.cleanup(),
  };
}

/**
 * Every byte a command could change: each file of the work tree and the run folders (by
 * sha256), every ref, HEAD and the index. Equal snapshots mean nothing was modified.
 */
export async function snapshotProject(project: Project): Promise<Record<string, string>> {
  const digest = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
  const out: Record<string, string> = {};
  for (const [path, bytes] of await readTreeBytes(project.dir)) out[path] = digest(bytes);
  out['git:refs'] = await project.repo.git(['for-each-ref', '--format=%(refname) %(objectname)']);
  out['git:HEAD'] = await project.repo.git(['symbolic-ref', 'HEAD']);
  out['git:index'] = digest(await readFile(join(project.dir, '.git', 'index')));
  return out;
}
