/**
 * `command` checks with `in: workspace` at the end of an agent case (docs/design/checks.md): run by
 * runAgentCase with the simulated agent in a copy of the workspace it left (a real process under
 * `process` isolation), their results in agent.json, and a resumed case taken from its record
 * only when it holds a result for each of them.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentCase, type AgentCaseJob } from '../../../src/agent/agent-case.js';
import type { AgentTarget } from '../../../src/agent/agent-target.js';
import { runSimAgent } from '../../../src/agent/sim-agent.js';
import { workspaceChecksFor } from '../../../src/checks/agent/workspace-commands.js';
import { checkName } from '../../../src/checks/registry.js';
import type { CheckEntry } from '../../../src/experiment/schema.js';
import { DEFAULT_LIMITS } from '../../../src/sandbox/sandbox-limits.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('agent-case-checks-');

const target: AgentTarget = {
  place: 'instructions',
  task: 'Summarise the notes.',
  git: false,
  limits: { maxTurns: 10, timeoutMs: 30_000 },
};

function job(entries: CheckEntry[], dir: string): AgentCaseJob {
  const workspaceChecks = workspaceChecksFor(entries, checkName, {
    isolation: 'process',
    limits: DEFAULT_LIMITS,
    env: { ...process.env, ANTHROPIC_API_KEY: 'sk-never-inside' },
    experimentDir: dir,
    tmpRoot: join(dir, 'tmp'),
    vars: { version: '1.2.0' },
  });
  return {
    agent: 'sim',
    target: { ...target, fixtures: join(dir, 'fixtures') },
    prompt: 'You must always write the summary to SUMMARY.md.',
    testCase: {
      id: 'c',
      vars: {},
      checks: [],
      expectations: [],
      split: 'train',
      source: { file: 'cases.yaml' },
    },
    sample: 0,
    sampleIndex: 0,
    recordDir: join(dir, 'record'),
    tmpRoot: join(dir, 'tmp'),
    ...(workspaceChecks === undefined ? {} : { workspaceChecks }),
  };
}

const deps = { run: runSimAgent, env: process.env, isolation: 'process' as const };

describe('workspace commands at the end of an agent case', () => {
  it('run in a copy of what the agent left; a resume reuses the record only when it holds each result', async () => {
    const dir = tmp();
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await writeFile(join(dir, 'fixtures', 'notes.md'), 'The export button works again.\n');
    const sawNotes: CheckEntry = {
      type: 'command',
      value: ['test', '-f', 'notes.md'],
      in: 'workspace',
      name: 'notes',
    };
    // Writes into its copy; the next command must not see it.
    const writes: CheckEntry = { type: 'command', value: ['sh', '-c', 'echo x > mine.txt'], in: 'workspace' };
    const sees: CheckEntry = { type: 'not-command', value: ['test', '-f', 'mine.txt'], in: 'workspace' };
    const first = await runAgentCase(job([sawNotes, writes, sees], dir), deps);
    expect(first.reused).toBeUndefined();
    expect(first.record.workspaceChecks?.map((c) => [c.name, c.pass])).toEqual([
      ['notes', true],
      ['command: sh -c echo x > mine.txt (in the workspace)', true],
      // Recorded un-negated: `not-` applies when the check reads it.
      ['not-command: test -f mine.txt (in the workspace)', false],
    ]);
    expect(first.record.files.map((f) => f.path)).not.toContain('mine.txt');
    const onDisk = JSON.parse(await readFile(join(dir, 'record', 'agent.json'), 'utf8'));
    expect(onDisk.workspaceChecks).toHaveLength(3);
    expect(first.toolCalls.map((c) => c.name)).toContain('Read');

    const again = await runAgentCase(job([sawNotes, writes, sees], dir), deps);
    expect(again.reused).toBe(true);
    expect(again.toolCalls).toEqual(first.toolCalls);
    // A command the record holds no result for: the workspace is gone, so the case is run again.
    const more: CheckEntry = { type: 'command', value: ['test', '-d', '.'], in: 'workspace' };
    const rerun = await runAgentCase(job([sawNotes, more], dir), deps);
    expect(rerun.reused).toBeUndefined();
    expect(rerun.record.workspaceChecks?.map((c) => c.pass)).toEqual([true, true]);
  });

  it('get the case vars and the agent’s tool calls, and none of the runner’s keys', async () => {
    const dir = tmp();
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await writeFile(join(dir, 'fixtures', 'notes.md'), 'Notes.\n');
    const sh = (script: string): CheckEntry => ({
      type: 'command',
      value: ['sh', '-c', script],
      in: 'workspace',
    });
    const outcome = await runAgentCase(
      job(
        [
          sh(`test "$AUTORESEARCH_VARS" = '{"version":"1.2.0"}'`),
          sh('case "$AUTORESEARCH_TOOL_CALLS" in *\'"name":"Read"\'*) exit 0;; *) exit 1;; esac'),
          sh('test -z "$ANTHROPIC_API_KEY"'),
        ],
        dir,
      ),
      deps,
    );
    expect(outcome.record.workspaceChecks?.map((c) => [c.pass, c.reason])).toEqual([
      [true, 'sh exited with code 0'],
      [true, 'sh exited with code 0'],
      [true, 'sh exited with code 0'],
    ]);
  });
});
