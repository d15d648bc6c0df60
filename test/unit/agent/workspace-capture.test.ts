import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, it } from 'vitest';
import type { AgentTarget } from '../../../src/agent/agent-target.js';
import { outputText } from '../../../src/agent/agent-case.js';
import { CAPTURE_FILE_LIMIT, captureWorkspace } from '../../../src/agent/capture.js';
import { placedPath, prepareWorkspace } from '../../../src/agent/workspace.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('agent-workspace-');

const target = (over: Partial<AgentTarget> = {}): AgentTarget => ({
  place: 'skill',
  name: 'notes',
  task: '{{task}}',
  git: false,
  limits: { maxTurns: 5, timeoutMs: 10_000 },
  ...over,
});

async function tree(root: string, files: Record<string, string>): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe('placedPath', () => {
  it('puts the optimised file where each agent reads it', () => {
    expect(placedPath('skill', 'claude', 'notes')).toBe('.claude/skills/notes/SKILL.md');
    expect(placedPath('skill', 'codex', 'notes')).toBe('.agents/skills/notes/SKILL.md');
    expect(placedPath('instructions', 'claude', undefined)).toBe('CLAUDE.md');
    expect(placedPath('instructions', 'codex', undefined)).toBe('AGENTS.md');
    expect(placedPath('agent', 'sim', 'reviewer')).toBe('.claude/agents/reviewer.md');
    expect(placedPath('system', 'claude', undefined)).toBeUndefined();
  });
});

describe('prepareWorkspace', () => {
  it('lays the shared fixtures, then the case’s over them, then the skill with its other files', async () => {
    const shared = await tree(join(tmp(), 'shared'), { 'README.md': 'shared', 'notes/a.md': 'shared a' });
    const own = await tree(join(tmp(), 'own'), { 'notes/a.md': 'case a', 'notes/b.md': 'case b' });
    const files = await tree(join(tmp(), 'skill-files'), { 'template.md': '# {{version}}' });
    const ws = await prepareWorkspace({
      parent: join(tmp(), 'work'),
      agent: 'claude',
      target: target({ fixtures: shared, files }),
      artifact: 'Write RELEASE_NOTES.md.',
      caseFixtures: own,
    });
    expect(await readFile(join(ws.dir, 'notes/a.md'), 'utf8')).toBe('case a');
    expect(await readFile(join(ws.dir, 'README.md'), 'utf8')).toBe('shared');
    expect(await readFile(join(ws.dir, '.claude/skills/notes/SKILL.md'), 'utf8')).toBe(
      'Write RELEASE_NOTES.md.',
    );
    expect(await readFile(join(ws.dir, '.claude/skills/notes/template.md'), 'utf8')).toBe('# {{version}}');
    expect([...ws.start.entries.keys()]).toEqual([
      '.claude/skills/notes/SKILL.md',
      '.claude/skills/notes/template.md',
      'README.md',
      'notes/a.md',
      'notes/b.md',
    ]);
    expect(ws.appendSystemPrompt).toBeUndefined();
  });

  it('gives `place: system` as text to append, and with `git` starts a repository at one commit', async () => {
    const shared = await tree(join(tmp(), 'shared'), { 'a.txt': 'a' });
    const ws = await prepareWorkspace({
      parent: join(tmp(), 'work'),
      agent: 'claude',
      target: target({ place: 'system', fixtures: shared, git: true }),
      artifact: 'Be brief.',
    });
    expect(ws.appendSystemPrompt).toBe('Be brief.');
    const log = await simpleGit(ws.dir).log();
    expect(log.total).toBe(1);
    expect(log.latest?.author_name).toBe('autoresearch');
    // .git/ is the workspace's machinery, not a fixture.
    expect([...ws.start.entries.keys()]).toEqual(['a.txt']);
  });
});

describe('captureWorkspace', () => {
  it('lists what was created, changed and deleted, keeps text, records links without following them', async () => {
    const root = await tree(join(tmp(), 'ws'), { 'keep.md': 'same', 'edit.md': 'before', 'gone.md': 'bye' });
    const secret = await tree(join(tmp(), 'host'), { 'secret.txt': 'HOST-SECRET' });
    const ws = await prepareWorkspace({
      parent: join(tmp(), 'work'),
      agent: 'sim',
      target: target({ fixtures: root }),
      artifact: 'x',
    });
    await writeFile(join(ws.dir, 'edit.md'), 'after');
    await rm(join(ws.dir, 'gone.md'));
    await tree(ws.dir, { 'out/new.md': 'fresh' });
    await symlink(join(secret, 'secret.txt'), join(ws.dir, 'leak.txt'));
    execFileSync('mkfifo', [join(ws.dir, 'pipe')]);
    await writeFile(join(ws.dir, 'big.bin'), Buffer.alloc(CAPTURE_FILE_LIMIT + 1, 65));
    await writeFile(join(ws.dir, 'binary.dat'), Buffer.from([0, 1, 2, 3]));

    const capture = await captureWorkspace(ws.dir, ws.start);
    const byPath = Object.fromEntries(capture.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual([
      'big.bin',
      'binary.dat',
      'edit.md',
      'gone.md',
      'leak.txt',
      'out/new.md',
      'pipe',
    ]);
    expect(byPath['edit.md']).toMatchObject({ status: 'changed', text: 'after' });
    expect(byPath['out/new.md']).toMatchObject({ status: 'created', text: 'fresh' });
    expect(byPath['gone.md']).toMatchObject({ status: 'deleted' });
    expect(byPath['leak.txt']).toMatchObject({ kind: 'link', target: join(secret, 'secret.txt') });
    expect(byPath['leak.txt']?.text).toBeUndefined();
    expect(byPath['pipe']).toMatchObject({ kind: 'other', skipped: 'not a regular file' });
    expect(byPath['big.bin']).toMatchObject({
      kind: 'file',
      skipped: `larger than ${CAPTURE_FILE_LIMIT} bytes`,
    });
    expect(byPath['binary.dat']).toMatchObject({ skipped: 'not UTF-8 text' });
    expect(JSON.stringify(capture)).not.toContain('HOST-SECRET');

    const text = outputText('Done.', capture);
    expect(text).toContain('Done.\n\n=== big.bin ===\n[not shown: larger than');
    expect(text).toContain('=== edit.md ===\nafter');
    expect(text).toContain('=== leak.txt ===\n[a link to');
    expect(text.trimEnd().endsWith('=== gone.md (deleted) ===')).toBe(true);
  });
});
