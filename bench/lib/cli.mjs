/**
 * Running the built CLI as a user would, and reading what it recorded: the journal of a run
 * (events.jsonl) and its folder.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CLI } from './paths.mjs';

/** The environment without real keys, endpoints or test hooks, so nothing reaches the network. */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /API_KEY|BASE_URL|^AUTORESEARCH_|^NODE_OPTIONS$|COLOR/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

/** The key the fake server accepts; it is not a secret. */
export const FAKE_KEY_ENV = { ANTHROPIC_API_KEY: 'bench-not-a-key', OPENAI_API_KEY: 'bench-not-a-key' };

/**
 * Runs `node [nodeArgs] dist/cli/main.js ...args` in `cwd` and resolves with
 * { code, signal, stdout, stderr, wallMs, pid, startedAt } (startedAt on performance.now()).
 */
export function runCli(args, { cwd, env = cleanEnv(), nodeArgs = [], onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout,
        stderr,
        wallMs: performance.now() - startedAt,
        pid: child.pid,
        startedAt,
      }),
    );
  });
}

/** Throws with the CLI's own words when it did not exit as expected. */
export function expectExit(result, codes, what) {
  if (codes.includes(result.code)) return result;
  const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
  throw new Error(`${what}: exit ${result.code ?? result.signal} (expected ${codes.join(' or ')})\n${tail}`);
}

/** The run folders under `<project>/runs`, oldest first. */
export function runDirs(projectDir) {
  const runs = join(projectDir, 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs)
    .filter((name) => !name.startsWith('.'))
    .map((name) => join(runs, name))
    .filter((path) => statSync(path).isDirectory())
    .sort();
}

/** The one run folder the project has (or the newest by its journal's start, when several). */
export function latestRunDir(projectDir) {
  const dirs = runDirs(projectDir);
  if (dirs.length === 0) throw new Error(`no run folder under ${projectDir}/runs`);
  // Run ids sort by minute only (then a random suffix), so order by creation time.
  return dirs.sort((a, b) => statSync(a).birthtimeMs - statSync(b).birthtimeMs || a.localeCompare(b)).at(-1);
}

/** The run folder that appeared since `before` (a list from runDirs). */
export function newRunDir(projectDir, before) {
  const known = new Set(before);
  const fresh = runDirs(projectDir).filter((dir) => !known.has(dir));
  if (fresh.length !== 1)
    throw new Error(`expected one new run folder under ${projectDir}/runs, found ${fresh.length}`);
  return fresh[0];
}

/** Every whole event line of the journal, parsed. */
export function readEvents(runDir) {
  const text = readFileSync(join(runDir, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

export function eventTime(event) {
  return Date.parse(event.at);
}

/** Bytes under a folder, recursively. */
export function folderBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

/** Files under a folder, recursively. */
export function folderFiles(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    total += entry.isDirectory() ? folderFiles(join(dir, entry.name)) : 1;
  }
  return total;
}
