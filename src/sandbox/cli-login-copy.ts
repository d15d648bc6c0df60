/**
 * A claude/codex CLI judge's or grader's login under `os` isolation (docs/design/isolation.md). The
 * CLIs write into their configuration folder during a call (Claude Code: session transcripts,
 * `.claude.json` updates, a refreshed token; Codex: `sessions/`, `history.jsonl`, logs), so a
 * read-only bind can make them fail, and a writable bind of the real folder would let a judge
 * change the user's login and settings. Instead the login is copied into the evaluation's own
 * private folders (mode 0700, inside its sandbox's root: never beside prompt files or other
 * sandboxes), which bubblewrap binds read-write at the paths the CLI expects; they go with the
 * sandbox, whatever happened. Nothing the CLI writes reaches the user's real folder.
 *
 * Only the login is copied, never history: Claude Code's `.credentials.json`, `settings.json`
 * and `.claude.json` from its folder (`~/.claude` or CLAUDE_CONFIG_DIR), and `~/.claude.json`
 * without its `projects` and `githubRepoPaths` keys (they name the user's other projects and
 * hold their per-project state); Codex's `auth.json` and `config.toml` (`~/.codex` or
 * CODEX_HOME). Transcripts, history, logs, plugins, caches and `CLAUDE.md` stay out.
 */
import { copyFile, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative } from 'node:path';
import { isRecord } from '../is-record.js';
import type { Mount } from './bwrap-argv.js';
import { isInside } from './sandbox-mounts.js';

interface LoginFolder {
  dir: string;
  files: readonly string[];
}

const CLAUDE_JSON = '.claude.json';
/** Keys of `.claude.json` about the user's other work, not the login. */
const CLAUDE_JSON_DROPPED = ['projects', 'githubRepoPaths'];

/** Where each CLI keeps its login: the home's defaults or the folders the user moved them to. */
function loginFolders(env: NodeJS.ProcessEnv, home: string): LoginFolder[] {
  const moved = (name: string) => {
    const value = env[name];
    return value !== undefined && isAbsolute(value) ? value : undefined;
  };
  return [
    { dir: home, files: [CLAUDE_JSON] },
    // Recent Claude Code versions keep `.claude.json` in this folder instead of the home.
    {
      dir: moved('CLAUDE_CONFIG_DIR') ?? join(home, '.claude'),
      files: ['.credentials.json', 'settings.json', CLAUDE_JSON],
    },
    { dir: moved('CODEX_HOME') ?? join(home, '.codex'), files: ['auth.json', 'config.toml'] },
  ];
}

async function kindOf(path: string): Promise<'file' | 'folder' | undefined> {
  try {
    const found = await stat(path);
    return found.isFile() ? 'file' : found.isDirectory() ? 'folder' : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function copyLoginFile(source: string, dest: string): Promise<void> {
  if ((await kindOf(source)) !== 'file') return;
  if (basename(source) !== CLAUDE_JSON) {
    // Keeps the file's mode (credentials stay 0600).
    await copyFile(source, dest);
    return;
  }
  const text = await readFile(source, 'utf8');
  let trimmed = text;
  try {
    const config: unknown = JSON.parse(text);
    if (isRecord(config)) {
      for (const key of CLAUDE_JSON_DROPPED) delete config[key];
      trimmed = `${JSON.stringify(config, null, 2)}\n`;
    }
  } catch {
    // Not JSON: the CLI's own business, copied as it is.
  }
  await writeFile(dest, trimmed, { mode: 0o600 });
}

/**
 * Fills `privateHome` (an empty 0700 folder, to be bound at `home`) with the login files
 * found under the home, and makes a private folder in `privateRoot` for each login folder
 * outside it. Returns the read-write binds of those outside folders.
 */
export async function copyCliLogin(
  env: NodeJS.ProcessEnv,
  home: string,
  target: { privateHome: string; privateRoot: string },
): Promise<Mount[]> {
  const mounts: Mount[] = [];
  const copies = new Map<string, string>();
  for (const folder of loginFolders(env, home)) {
    if ((await kindOf(folder.dir)) !== 'folder') continue;
    let copy = copies.get(folder.dir);
    if (copy === undefined) {
      if (isInside(folder.dir, home)) {
        copy = join(target.privateHome, relative(home, folder.dir));
        await mkdir(copy, { recursive: true, mode: 0o700 });
      } else {
        // mkdtemp makes it 0700.
        copy = await mkdtemp(join(target.privateRoot, 'login-'));
        mounts.push({ kind: 'rw', source: copy, dest: folder.dir });
      }
      copies.set(folder.dir, copy);
    }
    for (const name of folder.files) await copyLoginFile(join(folder.dir, name), join(copy, name));
  }
  return mounts;
}
