import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentRunRequest } from '../../../src/agent/agent-run.js';
import { runSimAgent } from '../../../src/agent/sim-agent.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('sim-agent-');

let made = 0;
async function workspace(files: Record<string, string>): Promise<string> {
  const dir = join(tmp(), `ws-${++made}`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const request = (dir: string, over: Partial<AgentRunRequest> = {}): AgentRunRequest => ({
  agent: 'sim',
  workspace: dir,
  task: 'Write the release notes for version 2.4.0 from notes/.',
  limits: { maxTurns: 20, timeoutMs: 10_000 },
  ...over,
});
const context = (sampleIndex = 0) => ({
  recordDir: tmp(),
  sampleIndex,
  env: {},
  isolation: 'process' as const,
});

describe('the simulated agent', () => {
  it('uses the skill its task fits, reads the notes, then writes the file a firm rule names', async () => {
    const dir = await workspace({
      '.claude/skills/notes/SKILL.md': 'You must always write the result to the file `RELEASE_NOTES.md`.',
      'notes/a.md': 'Added Apple Pay.',
    });
    const result = await runSimAgent(request(dir), context());
    expect(result.endReason).toBe('done');
    expect(result.finalMessage).toBe('Done: I wrote RELEASE_NOTES.md.');
    const written = await readFile(join(dir, 'RELEASE_NOTES.md'), 'utf8');
    expect(written.length).toBeGreaterThan(20);
    const tools = result.transcript
      .filter((e) => e.kind === 'tool_call')
      .map((e) => e.kind === 'tool_call' && [e.tool, e.input]);
    expect(tools).toEqual([
      ['Skill', { skill: 'notes' }],
      ['Read', { file_path: 'notes/a.md' }],
      ['Write', { file_path: 'RELEASE_NOTES.md', content: written.trimEnd() }],
    ]);
    expect(result.turns).toBe(4);
  });

  it('leaves alone a skill whose description does not fit the task, and its rules with it', async () => {
    const dir = await workspace({
      '.claude/skills/sql-migrations/SKILL.md':
        '---\nname: sql-migrations\ndescription: Write database migrations.\n---\nYou must always write the result to the file `MIGRATION.md`.\n',
      'notes/a.md': 'Added Apple Pay.',
    });
    const result = await runSimAgent(request(dir), context());
    expect(result.transcript.some((e) => e.kind === 'tool_call' && e.tool === 'Skill')).toBe(false);
    expect(result.finalMessage).not.toContain('MIGRATION.md');
    const fits = await workspace({
      '.claude/skills/sql-migrations/SKILL.md':
        '---\nname: sql-migrations\ndescription: Write database migrations.\n---\nYou must always write the result to the file `MIGRATION.md`.\n',
    });
    const used = await runSimAgent(
      request(fits, { task: 'Add a database migration for the orders table.' }),
      context(),
    );
    expect(used.transcript[0]).toMatchObject({
      kind: 'tool_call',
      tool: 'Skill',
      input: { skill: 'sql-migrations' },
    });
    expect(used.finalMessage).toBe('Done: I wrote MIGRATION.md.');
  });

  it('without a file to write, answers in its final message and leaves the workspace as it was', async () => {
    const dir = await workspace({
      'CLAUDE.md': 'Summarise the notes for users.',
      'notes/a.md': 'Fixed a crash.',
    });
    const result = await runSimAgent(request(dir), context());
    expect(result.endReason).toBe('done');
    expect(result.finalMessage.length).toBeGreaterThan(20);
    expect(result.transcript.some((e) => e.kind === 'tool_call' && e.tool === 'Write')).toBe(false);
  });

  it('reads an appended system prompt as instructions, and a negated rule as none', async () => {
    const dir = await workspace({ 'notes/a.md': 'x' });
    const told = await runSimAgent(
      request(dir, { appendSystemPrompt: 'Always save it as out/summary.md.' }),
      context(),
    );
    expect(told.finalMessage).toBe('Done: I wrote out/summary.md.');
    const other = await workspace({ 'notes/b.md': 'y' });
    const negated = await runSimAgent(
      request(other, { appendSystemPrompt: 'Do not write summary.md; reply instead.' }),
      context(),
    );
    expect(negated.finalMessage).not.toContain('summary.md');
  });

  it('stops at max turns, saying so', async () => {
    const dir = await workspace({
      'AGENTS.md': 'Always write the result to `OUT.md`.',
      'a.md': '1',
      'b.md': '2',
      'c.md': '3',
    });
    const result = await runSimAgent(request(dir, { limits: { maxTurns: 2, timeoutMs: 10_000 } }), context());
    expect(result.endReason).toBe('max_turns');
    expect(result.turns).toBe(2);
  });

  it('answers alike for the same sample and differently for another', async () => {
    const files = { 'CLAUDE.md': 'Summarise the notes.', 'notes/a.md': 'Added dark mode.' };
    const a = await runSimAgent(request(await workspace(files)), context(0));
    const b = await runSimAgent(request(await workspace(files)), context(0));
    const c = await runSimAgent(request(await workspace(files)), context(1));
    expect(b.finalMessage).toBe(a.finalMessage);
    expect(c.finalMessage).not.toBe(a.finalMessage);
  });
});
