/**
 * Choosing the isolation (docs/design/isolation.md) and the bubblewrap command line built for it.
 */
import { describe, expect, it } from 'vitest';
import { buildBwrapOptions, bwrapArgsData } from '../../../src/sandbox/bwrap-argv.js';
import { chooseIsolation } from '../../../src/sandbox/isolation.js';
import { packageMounts, programMounts } from '../../../src/sandbox/sandbox-mounts.js';

const works = () => undefined;
const missing = () => 'bwrap is not installed';

describe('chooseIsolation', () => {
  it('is os where bubblewrap works, and process with a warning where it does not', () => {
    expect(chooseIsolation(undefined, works)).toEqual({ ok: true, isolation: 'os' });
    const fallback = chooseIsolation(undefined, missing);
    expect(fallback).toMatchObject({ ok: true, isolation: 'process' });
    expect(fallback.ok && fallback.warning).toMatch(/bwrap is not installed.*\/proc/);
  });

  it('refuses an explicit os it cannot give, and never probes for process', () => {
    expect(chooseIsolation('os', missing)).toMatchObject({ ok: false });
    expect(
      chooseIsolation('process', () => {
        throw new Error('probed');
      }),
    ).toEqual({ ok: true, isolation: 'process' });
  });
});

describe('buildBwrapOptions', () => {
  const plan = {
    workDir: '/tmp/x/ws',
    home: { dir: '/tmp/x/h', path: '/home/sandbox' },
    mounts: [{ kind: 'ro' as const, source: '/usr', dest: '/usr' }],
    proxySocket: '/tmp/x/proxy.sock',
    shareNet: false,
    tmpBytes: 4 * 1024 * 1024,
    env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'one-time-token' },
  };

  it('unshares everything, clears the environment and makes the sandbox the only writable bind', () => {
    const options = buildBwrapOptions(plan);
    const text = options.join(' ');
    expect(text).not.toContain('--share-net');
    expect(text).toContain('--bind /tmp/x/ws /sandbox');
    expect(text).toContain('--size 4194304 --tmpfs /tmp --bind /tmp/x/h /home/sandbox --ro-bind /usr /usr');
    expect(text).toContain('--chdir /sandbox --clearenv --setenv PATH /usr/bin');
    expect(options.filter((a) => a === '--bind')).toHaveLength(3);
    expect(options).not.toContain('/');
    // The program's argv follows on the command line; the options never hold it.
    expect(options).not.toContain('--');
  });

  it("puts an agent's workspace at its fixed path and works there", () => {
    const text = buildBwrapOptions({ ...plan, workPath: '/workspace' }).join(' ');
    expect(text).toContain('--bind /tmp/x/ws /workspace');
    expect(text).toContain('--chdir /workspace --clearenv');
    expect(text).not.toContain(' /sandbox ');
  });

  it('drops every privilege, whoever starts it, and shows /proc read-only', () => {
    const text = buildBwrapOptions(plan).join(' ');
    expect(text).toMatch(
      /^--unshare-all --unshare-user --disable-userns --uid 65534 --gid 65534 --cap-drop ALL --die-with-parent --new-session /,
    );
    expect(text).toContain('--proc /proc --remount-ro /proc');
  });

  it('passes the options NUL-separated, for bwrap --args', () => {
    const data = bwrapArgsData(['--setenv', 'KEY', 'a b']);
    expect(data).toBe('--setenv\0KEY\0a b\0');
  });
});

describe('what is mounted', () => {
  it('binds only dist, package.json and node_modules of a package that holds the project', () => {
    const mounts = packageMounts(process.cwd(), `${process.cwd()}/experiments/cold-email`);
    expect(mounts.map((m) => (m.kind === 'ro' ? m.dest : '')).sort()).toEqual(
      ['dist', 'node_modules', 'package.json'].map((n) => `${process.cwd()}/${n}`),
    );
  });

  it('binds the files a command names, never a folder', () => {
    const script = `${process.cwd()}/test/fixtures/judges/hostile-judge.mjs`;
    const mounts = programMounts(['node', script, process.cwd(), `${process.cwd()}/test`]);
    expect(mounts).toEqual([{ kind: 'ro', source: script, dest: script }]);
  });
});
