/** What of a claude/codex CLI's login is copied for a judge under `os` isolation, and where. */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCliLogin } from '../../../src/sandbox/cli-login-copy.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('cli-login-copy-');

async function layout() {
  const dir = tmp();
  const home = join(dir, 'home');
  const privateRoot = join(dir, 'sbx');
  const privateHome = join(privateRoot, 'h');
  await mkdir(home, { recursive: true });
  await mkdir(privateHome, { recursive: true });
  return { dir, home, privateRoot, privateHome };
}

describe('copyCliLogin', () => {
  it('copies nothing and binds nothing when the user has no login', async () => {
    const { home, privateRoot, privateHome } = await layout();
    expect(await copyCliLogin({}, home, { privateHome, privateRoot })).toEqual([]);
    expect(await readdir(privateHome)).toEqual([]);
    expect(await readdir(privateRoot)).toEqual(['h']);
  });

  it('gives a CLAUDE_CONFIG_DIR outside the home its own private folder, with its .claude.json', async () => {
    const { dir, home, privateRoot, privateHome } = await layout();
    const config = join(dir, 'claude-config');
    await mkdir(join(config, 'projects'), { recursive: true });
    await writeFile(join(config, '.claude.json'), '{"userID":"u","projects":{"/p":{}},"githubRepoPaths":{}}');
    await writeFile(join(config, '.credentials.json'), '{}', { mode: 0o600 });
    await writeFile(join(config, 'projects', 'transcript.jsonl'), 'history');
    const mounts = await copyCliLogin({ CLAUDE_CONFIG_DIR: config }, home, { privateHome, privateRoot });
    expect(mounts).toHaveLength(1);
    const [mount] = mounts;
    if (mount?.kind !== 'rw') throw new Error('expected one read-write bind');
    expect(mount.dest).toBe(config);
    expect(mount.source.startsWith(`${privateRoot}/login-`)).toBe(true);
    expect(((await stat(mount.source)).mode & 0o777).toString(8)).toBe('700');
    expect((await readdir(mount.source)).sort()).toEqual(['.claude.json', '.credentials.json']);
    expect(JSON.parse(await readFile(join(mount.source, '.claude.json'), 'utf8'))).toEqual({ userID: 'u' });
    expect(((await stat(join(mount.source, '.credentials.json'))).mode & 0o777).toString(8)).toBe('600');
  });

  it('makes one copy of a folder both CLIs were pointed at, and copies a .claude.json that is not JSON as it is', async () => {
    const { dir, home, privateRoot, privateHome } = await layout();
    const shared = join(dir, 'shared');
    await mkdir(shared);
    await writeFile(join(shared, 'auth.json'), '{"tokens":{}}');
    await writeFile(join(shared, 'settings.json'), '{}');
    await writeFile(join(home, '.claude.json'), 'not json {');
    const mounts = await copyCliLogin({ CLAUDE_CONFIG_DIR: shared, CODEX_HOME: shared }, home, {
      privateHome,
      privateRoot,
    });
    expect(mounts).toHaveLength(1);
    expect((await readdir(mounts[0]?.kind === 'rw' ? mounts[0].source : '')).sort()).toEqual([
      'auth.json',
      'settings.json',
    ]);
    expect(await readFile(join(privateHome, '.claude.json'), 'utf8')).toBe('not json {');
  });
});
