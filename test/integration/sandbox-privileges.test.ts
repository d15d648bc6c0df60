/**
 * The sandbox holds whoever starts it (docs/design/isolation.md "What holds, as root and as a
 * user"). A hostile program in the real bubblewrap sandbox (`isolation: os`), started by a
 * stand-in runner that was handed a descriptor open on a host folder, tries to remount each
 * read-only bind writable and write there (this package's dist/, /usr, the Node installation),
 * load a kernel module, make new namespaces, mount again and write /proc/sys: every try fails,
 * it holds no capability, runs as nobody with no-new-privileges, and no descriptor leads out.
 *
 * CI runs as root, which is the case that mattered: before, a program started by root kept
 * CapEff 000001fffeffffff, remounted its bind of dist/ read-write and wrote a file into the
 * host's dist/ (and wrote /proc/sys/vm/drop_caches, and ran `unshare -m`, `unshare -U` and
 * `mount -t tmpfs`). The control case shows bubblewrap without the hardening still lets root do
 * that. As an ordinary user the same tries fail too, and the test passes there as well.
 *
 * Also: the model proxy's one-time token is on no process's command line while the judge runs.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BWRAP } from '../../src/sandbox/bwrap-argv.js';
import { systemBwrapProbe } from '../../src/sandbox/isolation.js';
import { runInSandbox } from '../../src/sandbox/run-in-sandbox.js';
import { systemMounts } from '../../src/sandbox/sandbox-mounts.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { REPO_ROOT, requireBuiltCli } from '../helpers/built-cli.js';
import { listProcesses, processesMentioning } from '../helpers/process-scan.js';

const HOSTILE = resolve('test/fixtures/judges/root-hostile.mjs');
const RUNNER = resolve('test/fixtures/judges/sandbox-runner.mjs');
const SLOW = resolve('test/fixtures/judges/slow-judge.mjs');
const PROBE_FILE = '.root-hostile-probe';
const isRoot = process.getuid?.() === 0;

let work: string;
const targets = [join(REPO_ROOT, 'dist'), '/usr', dirname(realpathSync(process.execPath))];

beforeAll(async () => {
  requireBuiltCli();
  expect(systemBwrapProbe(), 'bubblewrap must work here (CI installs Debian’s bubblewrap)').toBeUndefined();
  work = await mkdtemp(join(tmpdir(), 'ar-privileges-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

interface Tries {
  tried: Record<string, { ok: boolean; said: string }>;
  capEff: string;
  capBnd: string;
  noNewPrivs: string;
  uid: string;
  links: string[];
  pid1: string;
}

describe('a hostile program in the os sandbox', () => {
  it('cannot remount, write a bind, load a module, unshare, mount or write /proc/sys, as root too', async () => {
    const project = join(work, 'project');
    const tmpRoot = join(work, 'tmp');
    const secretDir = join(work, 'host-folder-behind-a-descriptor');
    await mkdir(project);
    await mkdir(tmpRoot);
    await mkdir(secretDir);
    const options = {
      program: { entry: { command: [process.execPath, HOSTILE, ...targets] }, builtinArgs: [] },
      files: [],
      resultFile: 'result.json',
      who: 'program',
      timeoutMs: 60_000,
      attempts: 1,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      commandCwd: project,
      tmpRoot,
      isolation: 'os',
    };
    // A descriptor the runner inherited without knowing (a shell's, a service manager's), at 40:
    // past the few Node uses itself. Before, it reached the program, which could list the host
    // folder through /proc/self/fd/40.
    const inherited = openSync(secretDir, 'r');
    let ran: { code: number | null; stdout: string; stderr: string };
    try {
      ran = await new Promise((done, fail) => {
        const child = spawn(process.execPath, [RUNNER, join(REPO_ROOT, 'dist'), JSON.stringify(options)], {
          cwd: project,
          stdio: ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(37).fill('ignore'), inherited],
        });
        let stdout = '';
        let stderr = '';
        child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk));
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
        child.on('error', fail);
        child.on('close', (code) => done({ code, stdout, stderr }));
      });
    } finally {
      closeSync(inherited);
    }
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout) as { ok: boolean; message?: string; value?: Tries };
    expect(result.ok, result.message).toBe(true);
    const seen = result.value as Tries;

    expect(Object.keys(seen.tried)).toHaveLength(targets.length * 2 + 9);
    for (const [label, outcome] of Object.entries(seen.tried)) expect(outcome.ok, label).toBe(false);
    for (const label of ['init_module', 'finit_module']) {
      // EPERM; ENOSYS on a kernel built without modules (as this machine's is), root or not.
      expect(seen.tried[label]?.said).toMatch(/Operation not permitted|Function not implemented/);
    }
    expect(seen.capEff).toBe('0000000000000000');
    expect(seen.capBnd).toBe('0000000000000000');
    expect(seen.noNewPrivs).toBe('1');
    expect(seen.uid.split(/\s+/)).toEqual(['65534', '65534', '65534', '65534']);
    // No descriptor of the program's or the relay's leads to the host folder.
    expect(seen.links.filter((link) => link.includes('host-folder'))).toEqual([]);
    // PID 1 (bubblewrap's init) shows no host path of the sandbox's: its options came on a descriptor.
    expect(seen.pid1).toMatch(/^bwrap --args \d+ -- /);
    expect(seen.pid1).not.toContain(tmpRoot);
    for (const target of targets) expect(existsSync(join(target, PROBE_FILE)), target).toBe(false);
  }, 90_000);

  it.runIf(isRoot)(
    '(control) without the hardening, bubblewrap started by root lets it remount a bind writable',
    async () => {
      const target = await mkdtemp(join(work, 'control-'));
      const binds = systemMounts().flatMap((m) =>
        m.kind === 'symlink' ? ['--symlink', m.target, m.path] : ['--ro-bind', m.source, m.dest],
      );
      const ran = await execa(
        BWRAP,
        [
          ...[
            '--unshare-all',
            '--die-with-parent',
            '--new-session',
            ...binds,
            '--ro-bind',
            target,
            '/target',
          ],
          ...[
            '--proc',
            '/proc',
            '--dev',
            '/dev',
            '--',
            'sh',
            '-c',
            'mount -o remount,bind,rw /target && echo x > /target/planted',
          ],
        ],
        { reject: false },
      );
      expect(ran.exitCode, ran.stderr).toBe(0);
      expect(existsSync(join(target, 'planted'))).toBe(true);
    },
  );
});

describe('the one-time proxy token', () => {
  it('is on no command line while the judge runs', async () => {
    const marker = `token-probe-${process.pid}`;
    const pool = createModelPool({ models: { judge: { provider: 'sim' } }, concurrency: 1, env: {} });
    const stop = new AbortController();
    try {
      const running = runInSandbox({
        program: { entry: { command: [process.execPath, SLOW, marker, '60'] }, builtinArgs: [] },
        client: pool.client('judge'),
        files: [],
        resultFile: 'done.json',
        accept: (json) => ({ ok: true, value: json }),
        who: 'judge',
        timeoutMs: 60_000,
        attempts: 1,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
        commandCwd: work,
        isolation: 'os',
        signal: stop.signal,
      });
      // The judge itself (not the relay, whose command line ends with the judge's).
      let judge: number | undefined;
      for (let tries = 0; judge === undefined && tries < 200; tries += 1) {
        judge = processesMentioning(marker).find((p) =>
          p.cmdline.startsWith(`${process.execPath} ${SLOW}`),
        )?.pid;
        if (judge === undefined) await new Promise((done) => setTimeout(done, 50));
      }
      expect(judge, 'the judge started').toBeDefined();
      const environ = readFileSync(`/proc/${judge}/environ`, 'utf8').split('\0');
      const token = environ
        .find((entry) => entry.startsWith('ANTHROPIC_API_KEY='))
        ?.slice('ANTHROPIC_API_KEY='.length);
      expect(token).toMatch(/.{16,}/);
      const showing = listProcesses().filter((p) => p.cmdline.includes(token as string));
      expect(showing.map((p) => p.cmdline)).toEqual([]);
      stop.abort();
      expect((await running).ok).toBe(false);
    } finally {
      stop.abort();
      await pool.close();
    }
  }, 60_000);
});
