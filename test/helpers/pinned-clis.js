// The user's agent CLIs at the versions the tests pin, installed once outside the repository
// and kept by version: `.ci/run` installs them before the gate, and a test asks for them with
// pinnedCli('claude'). They are the user's programs, never dependencies of the project.
//
//   node test/helpers/pinned-clis.js          installs any that are missing, prints their paths
//
// The cache lives in AUTORESEARCH_CLI_CACHE (default ~/.cache/autoresearch-test-clis), one
// folder per package and version. An install goes into a temporary folder that is renamed into
// place when it is whole, so a killed install or two test files asking at once never leave a
// half-installed CLI behind.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PINNED_CLIS = {
  claude: { package: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
};

export function cliCacheDir() {
  return process.env.AUTORESEARCH_CLI_CACHE ?? join(homedir(), '.cache', 'autoresearch-test-clis');
}

function folderOf(pin) {
  return join(cliCacheDir(), `${pin.package.replace('/', '+')}@${pin.version}`);
}

/** The installed binary's path, or undefined when this version is not in the cache. */
export function cachedCli(name) {
  const pin = PINNED_CLIS[name];
  if (pin === undefined) throw new Error(`no pinned CLI named ${name}`);
  const bin = join(folderOf(pin), 'node_modules', '.bin', pin.bin);
  return existsSync(bin) ? bin : undefined;
}

/** The pinned CLI's binary, installed from the npm registry first when it is not cached. */
export function pinnedCli(name) {
  const cached = cachedCli(name);
  if (cached !== undefined) return cached;
  const pin = PINNED_CLIS[name];
  const folder = folderOf(pin);
  const partial = `${folder}.partial-${process.pid}`;
  mkdirSync(partial, { recursive: true });
  try {
    // Claude Code declares Node 22 but runs as a native binary; the project's own
    // engine-strict applies to the project, not to the user's programs.
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        partial,
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--engine-strict=false',
        '--loglevel=error',
        `${pin.package}@${pin.version}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    try {
      renameSync(partial, folder);
    } catch (error) {
      // Another process put the same version in place first: use that one.
      if (!existsSync(folder)) throw error;
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  const bin = cachedCli(name);
  if (bin === undefined) throw new Error(`${pin.package}@${pin.version} installed no ${pin.bin} binary`);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of Object.keys(PINNED_CLIS)) console.log(`${name}: ${pinnedCli(name)}`);
}
