// Skill use read from transcripts parsed out of the CLIs' own stream shapes (Claude Code's
// stream-json, Codex's exec --json), as the runner records them.
import { describe, expect, it } from 'vitest';
import { parseClaudeStream } from '../../../src/agent/cli/claude-stream.js';
import { parseCodexStream } from '../../../src/agent/cli/codex-events.js';
import { findSkillUse as findInCalls } from '../../../src/agent/skill-use.js';
import { toolCallsOf } from '../../../src/agent/agent-tool-calls.js';
import type { TranscriptEntry } from '../../../src/agent/agent-run.js';

// As the record keeps them (tool-calls.json), from the parsed stream's transcript.
const findSkillUse = (transcript: TranscriptEntry[], skill: string) =>
  findInCalls(toolCallsOf(transcript), skill);

const lines = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join('\n');
const result = { type: 'result', subtype: 'success', is_error: false, num_turns: 2, result: 'Done.' };

/** Claude Code's stream for one tool call and its result, then a closing message. */
function claude(name: string, input: unknown, output = 'ok') {
  return parseClaudeStream(
    lines(
      { type: 'system', subtype: 'init' },
      { type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name, input }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] } },
      { type: 'assistant', message: { id: 'm2', content: [{ type: 'text', text: 'Done.' }] } },
      result,
    ),
  ).transcript;
}

/** Codex's stream for one shell command and its output, then its message. */
function codex(command: string) {
  return parseCodexStream(
    lines(
      { type: 'thread.started', thread_id: 'x' },
      {
        type: 'item.completed',
        item: { id: 'i0', type: 'command_execution', command, aggregated_output: '---\n', exit_code: 0 },
      },
      { type: 'item.completed', item: { id: 'i1', type: 'agent_message', text: 'Done.' } },
      { type: 'turn.completed', usage: { input_tokens: 10, output_tokens: 2 } },
    ),
  ).transcript;
}

describe('findSkillUse', () => {
  it("sees Claude Code's Skill tool called with the skill's name, a plugin's prefix allowed", () => {
    expect(findSkillUse(claude('Skill', { skill: 'sql-migrations' }), 'sql-migrations')).toEqual({
      used: true,
      call: 1,
      how: 'called Skill with "sql-migrations"',
    });
    expect(findSkillUse(claude('Skill', { skill: 'db:sql-migrations' }), 'sql-migrations').used).toBe(true);
  });

  it('names the other skill Claude Code used instead', () => {
    expect(findSkillUse(claude('Skill', { skill: 'pdf' }), 'sql-migrations')).toEqual({
      used: false,
      others: ['pdf'],
    });
  });

  it("sees the skill's SKILL.md read with Read, by absolute or relative path", () => {
    const absolute = claude('Read', { file_path: '/workspace/.claude/skills/sql-migrations/SKILL.md' });
    expect(findSkillUse(absolute, 'sql-migrations')).toMatchObject({
      used: true,
      how: 'read /workspace/.claude/skills/sql-migrations/SKILL.md with Read',
    });
    expect(
      findSkillUse(claude('Read', { file_path: '.claude/skills/sql-migrations/SKILL.md' }), 'sql-migrations')
        .used,
    ).toBe(true);
  });

  it("does not count another file of the skill's folder, another skill's SKILL.md, or a listing", () => {
    expect(
      findSkillUse(
        claude('Read', { file_path: '/workspace/.claude/skills/sql-migrations/notes.md' }),
        'sql-migrations',
      ).used,
    ).toBe(false);
    expect(
      findSkillUse(
        claude('Read', { file_path: '/workspace/.claude/skills/sql-migrations-old/SKILL.md' }),
        'sql-migrations',
      ),
    ).toEqual({ used: false, others: ['sql-migrations-old'] });
    expect(
      findSkillUse(claude('Bash', { command: 'ls .claude/skills/sql-migrations/SKILL.md' }), 'sql-migrations')
        .used,
    ).toBe(false);
    expect(
      findSkillUse(claude('Glob', { pattern: '.claude/skills/*/SKILL.md' }), 'sql-migrations').used,
    ).toBe(false);
  });

  it("sees Codex print the skill's SKILL.md with a shell command", () => {
    const read = codex("/bin/bash -lc 'sed -n 1,200p .agents/skills/sql-migrations/SKILL.md'");
    expect(findSkillUse(read, 'sql-migrations')).toMatchObject({ used: true, call: 1 });
    expect(
      findSkillUse(
        codex('/bin/bash -lc "cat /workspace/.agents/skills/sql-migrations/SKILL.md"'),
        'sql-migrations',
      ).used,
    ).toBe(true);
    expect(
      findSkillUse(codex("bash -lc 'head -n 40 ~/.codex/skills/pdf/SKILL.md'"), 'sql-migrations'),
    ).toEqual({ used: false, others: ['pdf'] });
    expect(
      findSkillUse(
        codex("bash -lc 'cat a/skills/pdf/SKILL.md a/skills/sql-migrations/SKILL.md'"),
        'sql-migrations',
      ).used,
    ).toBe(true);
  });

  it('finds no use in a run that called no tool, or only other tools', () => {
    const plain = parseClaudeStream(
      lines(
        { type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: 'An index is …' }] } },
        result,
      ),
    ).transcript;
    expect(findSkillUse(plain, 'sql-migrations')).toEqual({ used: false, others: [] });
    expect(findSkillUse(codex("bash -lc 'ls migrations'"), 'sql-migrations')).toEqual({
      used: false,
      others: [],
    });
  });
});
