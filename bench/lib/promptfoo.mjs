/**
 * promptfoo as a peer to compare with: installed only when asked, into the git-ignored
 * bench/.peers/, never a dependency of autoresearch. Run with telemetry, update checks and
 * sharing off, its config folder in a temporary directory, no cache and no result database.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PEERS } from './paths.mjs';

export const PROMPTFOO_VERSION = '0.121.20';
export const PROMPTFOO_ENTRY = join(PEERS, 'node_modules', 'promptfoo', 'dist', 'src', 'entrypoint.js');

/** The installed version, or undefined when it is not installed. */
export function installedPromptfoo() {
  const manifest = join(PEERS, 'node_modules', 'promptfoo', 'package.json');
  if (!existsSync(manifest) || !existsSync(PROMPTFOO_ENTRY)) return undefined;
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/** `npm install promptfoo@0.121.20` into bench/.peers/ (no install scripts, no browser download). */
export async function installPromptfoo() {
  mkdirSync(PEERS, { recursive: true });
  const manifest = join(PEERS, 'package.json');
  if (!existsSync(manifest)) {
    writeFileSync(
      manifest,
      `${JSON.stringify({ name: 'autoresearch-bench-peers', private: true }, null, 2)}\n`,
    );
  }
  console.log(
    `installing promptfoo@${PROMPTFOO_VERSION} into ${PEERS} (a few minutes; not part of the benchmark)…`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const code = await new Promise((resolve, reject) => {
    const child = spawn(
      npm,
      [
        'install',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--save-exact',
        '--engine-strict=false',
        `promptfoo@${PROMPTFOO_VERSION}`,
      ],
      { cwd: PEERS, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } },
    );
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`npm install promptfoo@${PROMPTFOO_VERSION} failed (exit ${code})`);
}

/** The environment promptfoo runs with: no telemetry, update checks or sharing; a private config folder. */
export function promptfooEnv(base, configDir) {
  return {
    ...base,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_SHARING: '1',
    PROMPTFOO_DISABLE_REMOTE_GENERATION: '1',
    PROMPTFOO_CONFIG_DIR: configDir,
  };
}
