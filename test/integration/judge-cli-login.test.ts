/**
 * A claude/codex CLI judge under `os` isolation (docs/design/isolation.md) gets a private copy of
 * its login it may write to: a stub `claude` / `codex` (test/fixtures/judges/cli-login-judge.mjs)
 * reads its credentials, then writes into its configuration folder as the real CLIs do. The
 * judge call succeeds, the user's real folders (a fake HOME, a CODEX_HOME outside it) are
 * byte for byte as before, the copy held only the login (no history, no other project's
 * paths) in a 0700 folder of that evaluation's sandbox, and it is gone afterwards — after a
 * failed attempt and an abort too. Real bubblewrap; skipped only where it cannot run.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { Rubric } from '../../src/experiment/types.js';
import { systemBwrapProbe } from '../../src/sandbox/isolation.js';
import { type RunJudgeOptions, runJudge } from '../../src/judge/run-judge.js';

const STUB = resolve('test/fixtures/judges/cli-login-judge.mjs');
const RUBRIC = '# Rubric\n\n## Criteria\n\n### Clarity\nIs it clear?\n';
const CLAUDE_TOKEN = 'claude-oauth-token-0x51';
const CODEX_TOKEN = 'codex-auth-token-0x52';
const HISTORY = 'a transcript of another project 0xdead';
const OTHER_PROJECT = '/srv/the-users-other-project';

let work: string;
let home: string;
let codexHome: string;
let bin: string;
let tmpRoot: string;
let rubric: Rubric;

/** Every file under a folder with its mode and text. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const visit = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const mode = ((await stat(full)).mode & 0o777).toString(8);
      if (entry.isDirectory()) {
        files[`${relative(root, full)}/`] = mode;
        await visit(full);
      } else files[relative(root, full)] = `${mode} ${await readFile(full, 'utf8')}`;
    }
  };
  await visit(root);
  return files;
}

async function put(path: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  await chmod(path, mode);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ar-cli-login-'));
  home = join(work, 'home');
  codexHome = join(work, 'codex-home');
  bin = join(work, 'bin');
  tmpRoot = join(work, 'tmp');
  await mkdir(tmpRoot);
  await mkdir(bin);
  await symlink(STUB, join(bin, 'claude'));
  await symlink(STUB, join(bin, 'codex'));
  await put(
    join(home, '.claude.json'),
    JSON.stringify({
      userID: 'user-1',
      hasCompletedOnboarding: true,
      projects: { [OTHER_PROJECT]: { history: [{ display: HISTORY }] } },
    }),
  );
  await put(
    join(home, '.claude', '.credentials.json'),
    JSON.stringify({ claudeAiOauth: { accessToken: CLAUDE_TOKEN } }),
    0o600,
  );
  await put(join(home, '.claude', 'settings.json'), '{"model":"sonnet"}');
  await put(join(home, '.claude', 'history.jsonl'), `{"display":"${HISTORY}"}\n`);
  await put(join(home, '.claude', 'projects', '-srv-other', 'abc.jsonl'), HISTORY);
  await put(join(codexHome, 'auth.json'), JSON.stringify({ tokens: { access_token: CODEX_TOKEN } }), 0o600);
  await put(join(codexHome, 'config.toml'), 'model = "gpt-5"\n');
  await put(join(codexHome, 'sessions', '2025', 'old.jsonl'), HISTORY);
  rubric = parseRubric(join(work, 'rubric.md'), RUBRIC).rubric as Rubric;
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

function judgeWith(command: string[], extra: Partial<RunJudgeOptions> = {}) {
  return runJudge({
    outputs: [
      { caseId: 'c1', sample: 0, text: 'An output to judge.' },
      { caseId: 'c2', sample: 0, text: 'Another output.' },
    ],
    rubric,
    judge: { command },
    seed: 1,
    timeoutMs: 60_000,
    attempts: 1,
    commandCwd: work,
    isolation: 'os',
    env: { PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, HOME: home, CODEX_HOME: codexHome },
    tmpRoot,
    ...extra,
  });
}

const bwrapProblem = systemBwrapProbe();

describe.skipIf(bwrapProblem !== undefined)('a claude/codex CLI judge under os isolation', () => {
  it('writes into a private copy of its claude login; the real folder is unchanged and the copy gone', async () => {
    const before = await snapshot(home);
    const result = await judgeWith(['claude', '-p', 'judge these']);
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
    if (!result.ok) return;
    const found = (result.raw as { found: Record<string, unknown> }).found;
    // Its login was there, with the credentials' own mode, in a private 0700 HOME of this
    // evaluation's sandbox.
    expect(found['credentials']).toContain(CLAUDE_TOKEN);
    expect(found['credentialsMode']).toBe('600');
    expect(found['settings']).toBe('{"model":"sonnet"}');
    expect(found['homeMode']).toBe('700');
    expect(found['homeFrom']).toMatch(/\/sbx-\w+\/h-\w+$/);
    // Only the login: no transcripts, no history, no other project's paths.
    expect(found['files']).toEqual(['.credentials.json', 'settings.json']);
    expect(found['homeFiles']).toEqual([
      '.claude.json',
      '.claude/.credentials.json',
      '.claude/settings.json',
    ]);
    expect(JSON.parse(found['claudeJson'] as string)).toEqual({
      userID: 'user-1',
      hasCompletedOnboarding: true,
    });
    expect(JSON.stringify(found)).not.toContain(HISTORY);
    expect(JSON.stringify(found)).not.toContain(OTHER_PROJECT);
    // Nothing it wrote reached the real folder, and its copy went with the sandbox.
    expect(await snapshot(home)).toEqual(before);
    expect(await readdir(tmpRoot)).toEqual([]);
  }, 90_000);

  it('writes into a private copy of its codex login in CODEX_HOME outside the home', async () => {
    const before = await snapshot(codexHome);
    const beforeHome = await snapshot(home);
    const result = await judgeWith(['codex', 'exec', 'judge these']);
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
    if (!result.ok) return;
    const found = (result.raw as { found: Record<string, unknown> }).found;
    expect(found['credentials']).toContain(CODEX_TOKEN);
    expect(found['config']).toBe('model = "gpt-5"\n');
    expect(found['files']).toEqual(['auth.json', 'config.toml']);
    expect(found['configFrom']).toMatch(/\/sbx-\w+\/login-\w+$/);
    expect(JSON.stringify(found)).not.toContain(HISTORY);
    expect(await snapshot(codexHome)).toEqual(before);
    expect(await snapshot(home)).toEqual(beforeHome);
    expect(await readdir(tmpRoot)).toEqual([]);
  }, 90_000);

  it('removes the copy after failed attempts and after an abort, and the real folders stay as they were', async () => {
    const before = { home: await snapshot(home), codex: await snapshot(codexHome) };
    const failed = await judgeWith(['claude', '-p', 'x', '--fail'], { attempts: 2 });
    expect(failed.ok).toBe(false);
    expect(failed.attempts).toBe(2);
    expect(await readdir(tmpRoot)).toEqual([]);

    const controller = new AbortController();
    const running = judgeWith(['codex', 'exec', 'x', '--hang'], { signal: controller.signal });
    // Aborted once the stub has written into its copy and says it started.
    const listing = (path: string) => readdir(path).catch((): string[] => []);
    const startedFile = async () => {
      for (const sbx of await listing(tmpRoot)) {
        for (const name of await listing(join(tmpRoot, sbx))) {
          if (name.startsWith('ws-') && (await listing(join(tmpRoot, sbx, name))).includes('started'))
            return true;
        }
      }
      return false;
    };
    const deadline = Date.now() + 30_000;
    while (!(await startedFile()) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    expect(await startedFile()).toBe(true);
    controller.abort();
    const aborted = await running;
    expect(aborted.ok).toBe(false);
    expect(aborted.ok ? '' : aborted.message).toMatch(/interrupted/);
    expect(await readdir(tmpRoot)).toEqual([]);
    expect(await snapshot(home)).toEqual(before.home);
    expect(await snapshot(codexHome)).toEqual(before.codex);
  }, 90_000);
});
