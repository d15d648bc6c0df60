/**
 * The built CLI as a subprocess, for the durability tests.
 *
 * Several engineers rebuild dist/ in the shared tree while tests run, so `snapshotCli()`
 * copies the build into a temporary package root (dist/, package.json, a node_modules link)
 * and every run, resume and judge subprocess of a test file uses that copy. The built-in
 * judge and grader find the CLI from the package root, so they use the copy too.
 */
import { cp, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface CliCopy {
  main: string;
  cleanup(): Promise<void>;
}

export async function snapshotCli(): Promise<CliCopy> {
  const dist = process.env['AUTORESEARCH_TEST_DIST'] ?? join(REPO_ROOT, 'dist');
  if (!existsSync(join(dist, 'cli', 'main.js'))) {
    throw new Error(`${dist}/cli/main.js is missing: run \`npm run build\` first`);
  }
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ar-cli-')));
  await cp(dist, join(root, 'dist'), { recursive: true });
  await cp(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  await symlink(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const main = join(root, 'dist', 'cli', 'main.js');
  const probe = await execa(process.execPath, [main, '--version'], { reject: false });
  if (probe.exitCode !== 0) throw new Error(`the copied CLI does not start: ${probe.stderr}`);
  return { main, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export interface CliResult {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** AUTORESEARCH_TEST_KILL_AT for this process: "<point>:<n>". */
  killAt?: string;
  timeoutMs?: number;
}

export interface RunningCli {
  pid: number;
  /** Settles when the process ends (never rejects). */
  done: Promise<CliResult>;
}

/** Starts the CLI and returns at once; `done` settles when it ends. */
export function spawnCli(main: string, args: readonly string[], options: CliOptions): RunningCli {
  const env: NodeJS.ProcessEnv = { ...options.env, NO_COLOR: '1' };
  delete env['AUTORESEARCH_TEST_KILL_AT'];
  if (options.killAt !== undefined) env['AUTORESEARCH_TEST_KILL_AT'] = options.killAt;
  const child = execa(process.execPath, [main, ...args], {
    cwd: options.cwd,
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: options.timeoutMs ?? 120_000,
  });
  if (child.pid === undefined) throw new Error(`could not start ${main}`);
  const done = child.then((result) => ({
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
  }));
  return { pid: child.pid, done };
}

export function runCli(main: string, args: readonly string[], options: CliOptions): Promise<CliResult> {
  return spawnCli(main, args, options).done;
}

export function describeResult(result: CliResult): string {
  const how = result.signal ? `signal ${result.signal}` : `exit ${result.exitCode}`;
  return `${how}\n--- stderr ---\n${result.stderr.slice(-3000)}`;
}
