/**
 * The `skill-used` check through runChecks, as the evaluation runs it on an agent case: the
 * experiment's skill by default or one named in value, `not-` for a skill that should be left
 * alone, and an error (never a pass, negated or not) for an output that is no agent run or a run
 * that broke off before it used the skill.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../../src/agent/agent-run.js';
import { toolCallsOf } from '../../../../src/agent/agent-tool-calls.js';
import type { AgentEvidence } from '../../../../src/checks/agent/agent-evidence.js';
import { finishedWorkspace } from '../../../../src/checks/agent/finished-workspace.js';
import { runChecks } from '../../../../src/checks/run-checks.js';
import { validateCheckEntry } from '../../../../src/checks/registry.js';
import type { CheckEntry } from '../../../../src/experiment/schema.js';

const usedSkill: TranscriptEntry[] = [
  { kind: 'tool_call', turn: 1, id: 't1', tool: 'Skill', input: { skill: 'sql-migrations' } },
  { kind: 'tool_result', turn: 1, id: 't1', isError: false, content: 'Launching skill: sql-migrations' },
  { kind: 'assistant', turn: 2, text: 'Wrote the migration.' },
];
const answered: TranscriptEntry[] = [{ kind: 'assistant', turn: 1, text: 'An index is a lookup structure.' }];

interface Run {
  transcript: TranscriptEntry[];
  endReason: AgentEvidence['endReason'];
  skill?: string;
}

/** The evidence the evaluation builds for an agent case, from the calls of this transcript. */
function evidence(run: Run): AgentEvidence {
  return {
    endReason: run.endReason,
    turns: 2,
    toolCalls: toolCallsOf(run.transcript),
    workspace: finishedWorkspace([], []),
    workspaceChecks: new Map(),
    ...(run.skill === undefined ? {} : { skill: run.skill }),
  };
}

async function judge(entry: CheckEntry, run: Run | undefined) {
  const [outcome] = await runChecks({
    output: 'Done.',
    ...(run === undefined ? {} : { agent: evidence(run) }),
    vars: {},
    checks: [entry],
    baseDir: process.cwd(),
    env: {},
  });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

describe('skill-used', () => {
  it("passes when the agent used the experiment's skill, and not-skill-used then fails", async () => {
    const run = { transcript: usedSkill, endReason: 'done' as const, skill: 'sql-migrations' };
    expect(await judge({ type: 'skill-used' }, run)).toMatchObject({
      name: 'skill-used',
      pass: true,
      score: 1,
      reason: 'the agent used the skill "sql-migrations" (call 1: called Skill with "sql-migrations")',
    });
    expect(await judge({ type: 'not-skill-used' }, run)).toMatchObject({ pass: false, score: 0 });
  });

  it('fails when the agent answered without it, and not-skill-used then passes', async () => {
    const run = { transcript: answered, endReason: 'done' as const, skill: 'sql-migrations' };
    expect(await judge({ type: 'skill-used' }, run)).toMatchObject({
      pass: false,
      reason: 'the agent did not use the skill "sql-migrations"',
    });
    expect(await judge({ type: 'not-skill-used' }, run)).toMatchObject({ pass: true, score: 1 });
  });

  it('looks for the skill named in value instead, and names the one the agent used', async () => {
    const run = { transcript: usedSkill, endReason: 'done' as const, skill: 'other' };
    expect(await judge({ type: 'skill-used', value: 'sql-migrations' }, run)).toMatchObject({
      name: 'skill-used: sql-migrations',
      pass: true,
    });
    expect((await judge({ type: 'skill-used' }, run)).reason).toBe(
      'the agent did not use the skill "other"; it used "sql-migrations" instead',
    );
  });

  it('cannot judge an output that is no agent run, or an agent run with no skill to look for', async () => {
    for (const type of ['skill-used', 'not-skill-used']) {
      expect(await judge({ type }, undefined)).toMatchObject({ pass: false, error: true });
      expect(await judge({ type }, { transcript: answered, endReason: 'done' })).toMatchObject({
        pass: false,
        error: true,
      });
    }
  });

  it('cannot tell from a run that broke off before it used the skill, but sees a use before the break', async () => {
    for (const endReason of ['error', 'timeout'] as const) {
      const broke = { transcript: answered, endReason, skill: 'sql-migrations' };
      for (const type of ['skill-used', 'not-skill-used'])
        expect(await judge({ type }, broke)).toMatchObject({
          pass: false,
          error: true,
          reason: expect.stringContaining(`ended with ${endReason}`),
        });
      expect(await judge({ type: 'skill-used' }, { ...broke, transcript: usedSkill })).toMatchObject({
        pass: true,
      });
    }
    const capped = { transcript: answered, endReason: 'max_turns' as const, skill: 'sql-migrations' };
    expect(await judge({ type: 'not-skill-used' }, capped)).toMatchObject({ pass: true });
  });

  it('takes a skill name in value, or none', () => {
    expect(validateCheckEntry({ type: 'skill-used' }).filter((i) => i.keyPath === 'value')).toEqual([]);
    expect(
      validateCheckEntry({ type: 'not-skill-used', value: 'pdf-forms' }).filter((i) => i.keyPath === 'value'),
    ).toEqual([]);
    expect(
      validateCheckEntry({ type: 'skill-used', value: 'PDF Forms' }).filter((i) => i.keyPath === 'value'),
    ).toMatchObject([{ keyPath: 'value', message: expect.stringMatching(/skill's name/) }]);
  });
});
