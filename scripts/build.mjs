// Builds dist/ from src/ (tsc, then the report page's script): `npm run build` (with --clean) and, before every test run, vitest's
// global setup (test/build-before-tests.ts), so no test runs against a stale build.
//
// tsc's build mode with an incremental build record (dist/.tsbuildinfo, inside dist/ so
// deleting dist/ forgets it too): an unchanged tree costs a look at file times, a changed one
// recompiles what the change reaches. Builds are serialized by a lock file, because two
// test runs started at once would otherwise both rewrite dist/ while the first one's tests
// already read it. --clean removes dist/ first, so files of deleted sources never linger.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const LOCK = `${root}.build.lock`;
const WAIT_LIMIT_MS = 10 * 60_000;

const { values } = parseArgs({ options: { clean: { type: 'boolean', default: false } }, strict: true });

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function tryCreate(file) {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}

function readPid(file) {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock, waiting for a live holder. A holder that died (a killed build) leaves its
 * lock behind; it is replaced under a guard named after the dead pid, so of several processes
 * finding the same dead lock exactly one replaces it.
 */
async function acquireLock() {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!tryCreate(LOCK)) {
    const holder = readPid(LOCK);
    if (holder !== undefined && !alive(holder)) {
      const guard = `${LOCK}.dead-${holder}`;
      if (tryCreate(guard)) {
        try {
          if (readPid(LOCK) === holder) unlinkSync(LOCK);
        } finally {
          unlinkSync(guard);
        }
        continue;
      }
    }
    if (Date.now() > deadline)
      throw new Error(`another build has held ${LOCK} too long (remove it if no build runs)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

await acquireLock();
try {
  if (values.clean) rmSync(`${root}dist`, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const compiled = spawnSync(process.execPath, [tsc, '--build', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (compiled.status !== 0) process.exitCode = compiled.status ?? 1;
  else {
    // tsc does not keep the executable bit; the bin entry needs it when linked by npm.
    chmodSync(`${root}dist/cli/main.js`, 0o755);
    // The report page's browser code (src/report/browser/), bundled for inlining.
    const page = spawnSync(process.execPath, [`${root}scripts/build-report-page.mjs`], {
      cwd: root,
      stdio: 'inherit',
    });
    if (page.status !== 0) process.exitCode = page.status ?? 1;
  }
} finally {
  unlinkSync(LOCK);
}
