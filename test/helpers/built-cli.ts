/**
 * The built CLI (`node dist/cli/main.js`, made by `npm run build`) run as a user runs it, in
 * an environment stripped of real keys and endpoints so nothing can reach the network.
 *
 *   const result = await runBuiltCli(['run', dir, '--provider', 'sim'], { cwd, env: { NO_COLOR: '1' } });
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
// Overridable so a test can point at a private build while dist/ is being rebuilt by someone else.
export const CLI_MAIN = process.env['AUTORESEARCH_TEST_CLI'] ?? join(REPO_ROOT, 'dist/cli/main.js');

export function requireBuiltCli(): void {
  if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: run \`npm run build\` first`);
}

/** The run folders in a runs directory (its .gitignore left out). */
export function runFolders(runsDir: string): string[] {
  return existsSync(runsDir) ? readdirSync(runsDir).filter((name) => !name.startsWith('.')) : [];
}

/** This process's environment without API keys, base URLs, git or autoresearch settings. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /API_KEY|BASE_URL|^AUTORESEARCH_|^GIT_|^DEBUG$|COLOR/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

export interface CliResult {
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** Wall-clock milliseconds. */
  ms: number;
  /** CPU seconds (user + system) of the CLI and every process it waited for; null off Linux. */
  cpuSeconds: number | null;
}

export async function runBuiltCli(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<CliResult> {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const result = await execa(process.execPath, [CLI_MAIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  const cpuAfter = childCpuSeconds();
  return {
    code: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    ms: performance.now() - started,
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}

/**
 * cutime + cstime of this process (Linux /proc): the CPU time of the children it has reaped,
 * which includes what they reaped in turn. Wall-clock time on a shared machine says little
 * about the tool; CPU time does.
 */
function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticksPerSecond = 100;
    return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
  } catch {
    return null;
  }
}
