/**
 * The checks on an agent case's files and actions (docs/design/checks.md "Checks on an agent's
 * files and actions"), through runChecks as the evaluation calls it: `file:` on text checks (a
 * path and a glob, missing and unreadable files), `file-exists`, `tool-call` over the agent's
 * calls, `turn-count`, `end-reason`, `tool-error-count`, and a `command` with `in: workspace`
 * reading its recorded result. The workspace is a real fixture folder plus a record's files.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCaseRecord } from '../../../../src/agent/agent-record.js';
import { type AgentEvidence, agentEvidenceOf } from '../../../../src/checks/agent/agent-evidence.js';
import { workspaceCheckKey } from '../../../../src/checks/agent/workspace-check-key.js';
import { runChecks } from '../../../../src/checks/run-checks.js';
import type { CheckEntry } from '../../../../src/experiment/schema.js';

let fixtures: string;
let evidence: AgentEvidence;

const record: AgentCaseRecord = {
  version: 1,
  agent: 'sim',
  caseId: 'c1',
  sample: 0,
  key: 'k',
  endReason: 'done',
  turns: 4,
  durationMs: 10,
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  reportedCostUsd: 0,
  finalMessage: 'Done.',
  tools: { Read: 1, Write: 2, Bash: 1 },
  files: [
    { path: 'RELEASE_NOTES.md', status: 'created', kind: 'file', size: 40 },
    { path: 'notes/old.md', status: 'deleted', kind: 'file' },
    { path: 'data.json', status: 'created', kind: 'file', size: 12 },
    { path: 'big.bin', status: 'created', kind: 'file', size: 9, skipped: 'not UTF-8 text' },
  ],
  truncated: false,
  workspaceChecks: [
    {
      key: workspaceCheckKey({ type: 'command', value: ['npm', 'test'], in: 'workspace' }),
      name: 'npm test',
      pass: false,
      score: 0,
      reason: 'npm exited with code 1: 2 tests failed',
    },
  ],
};

beforeAll(async () => {
  fixtures = await mkdtemp(join(tmpdir(), 'agent-checks-'));
  await mkdir(join(fixtures, 'notes'));
  await writeFile(join(fixtures, 'notes/a.md'), '# Notes\n- fixed the crash\n');
  await writeFile(join(fixtures, 'notes/old.md'), 'old\n');
  await writeFile(join(fixtures, 'README.md'), 'A project.\n');
  await symlink('README.md', join(fixtures, 'link.md'));
  evidence = agentEvidenceOf({
    record,
    toolCalls: [
      { name: 'Read', arguments: { file_path: 'notes/a.md' }, error: false },
      { name: 'Write', arguments: { file_path: 'RELEASE_NOTES.md', content: 'x' }, error: false },
      { name: 'Bash', arguments: { command: 'npm test' }, error: true },
      { name: 'Write', arguments: { file_path: 'data.json', content: '{}' }, error: false },
    ],
    texts: new Map([
      ['RELEASE_NOTES.md', '# 2.4.0\n\n## Fixed\n- The crash on start.\n'],
      ['data.json', '{"version":"2.4.0"}'],
    ]),
    fixtures: [fixtures],
  });
});
afterAll(async () => {
  await rm(fixtures, { recursive: true, force: true });
});

async function check(entry: CheckEntry, output = 'Done.') {
  const [outcome] = await runChecks({
    output,
    vars: {},
    checks: [entry],
    baseDir: fixtures,
    env: {},
    agent: evidence,
  });
  return outcome;
}

describe('file: on a text check', () => {
  it('reads the file the agent wrote instead of the output', async () => {
    expect(await check({ type: 'contains', value: '## Fixed', file: 'RELEASE_NOTES.md' })).toMatchObject({
      pass: true,
      reason: 'RELEASE_NOTES.md: output contains "## Fixed"',
    });
    expect(await check({ type: 'contains', value: '## Fixed' })).toMatchObject({ pass: false });
    expect(await check({ type: 'word-count', max: 3, file: './RELEASE_NOTES.md' })).toMatchObject({
      pass: false,
    });
  });

  it('parses a file: is-json with a schema', async () => {
    const schema = { type: 'object', required: ['version'] };
    expect(await check({ type: 'is-json', value: schema, file: 'data.json' })).toMatchObject({ pass: true });
    expect(await check({ type: 'is-json', file: 'RELEASE_NOTES.md' })).toMatchObject({ pass: false });
  });

  it('reads a fixture the agent left alone', async () => {
    expect(await check({ type: 'icontains', value: 'crash', file: 'notes/a.md' })).toMatchObject({
      pass: true,
    });
  });

  it('fails a missing, deleted or unreadable file as an error that not- leaves failed', async () => {
    expect(await check({ type: 'not-contains', value: 'x', file: 'CHANGELOG.md' })).toMatchObject({
      pass: false,
      error: true,
      reason: 'CHANGELOG.md does not exist in the workspace the agent left',
    });
    expect(await check({ type: 'contains', value: 'old', file: 'notes/old.md' })).toMatchObject({
      pass: false,
      reason: 'notes/old.md was deleted by the agent',
    });
    expect(await check({ type: 'contains', value: 'x', file: 'big.bin' })).toMatchObject({
      pass: false,
      error: true,
      reason: 'big.bin cannot be read as text: its content was not kept: not UTF-8 text',
    });
    expect((await check({ type: 'contains', value: 'x', file: 'link.md' }))?.reason).toBe(
      'link.md cannot be read as text: a link to README.md',
    );
  });

  it('with a glob, every matching file must pass, not- applying to each', async () => {
    expect(await check({ type: 'contains', value: '#', file: '**/*.md' })).toMatchObject({
      pass: false,
      score: 0.5,
    });
    expect(await check({ type: 'contains', value: 'crash', file: 'notes/*.md' })).toMatchObject({
      pass: true,
      reason: 'all 1 files matching "notes/*.md" pass',
    });
    expect(await check({ type: 'not-contains', value: 'TODO', file: 'notes/*.md' })).toMatchObject({
      pass: true,
    });
    expect(await check({ type: 'contains', value: 'x', file: 'src/**' })).toMatchObject({
      pass: false,
      error: true,
    });
  });
});

describe('file-exists', () => {
  it('sees created files and untouched fixtures, not deleted ones', async () => {
    expect(await check({ type: 'file-exists', value: 'RELEASE_NOTES.md' })).toMatchObject({ pass: true });
    expect(await check({ type: 'file-exists', value: 'README.md' })).toMatchObject({ pass: true });
    expect(await check({ type: 'file-exists', value: 'notes/old.md' })).toMatchObject({
      pass: false,
      reason: 'notes/old.md was deleted by the agent',
    });
    expect(await check({ type: 'not-file-exists', value: 'notes/old.md' })).toMatchObject({ pass: true });
    expect(await check({ type: 'file-exists', value: '*.json' })).toMatchObject({
      pass: true,
      reason: '1 file(s) match "*.json": data.json',
    });
    expect(await check({ type: 'file-exists', value: 'dist/*.js' })).toMatchObject({ pass: false });
  });
});

describe('checks on the run', () => {
  it('tool-call reads the agent’s calls, arguments as a subset', async () => {
    expect(
      await check({ type: 'tool-call', value: 'Write', arguments: { file_path: 'RELEASE_NOTES.md' } }),
    ).toMatchObject({
      pass: true,
    });
    expect(await check({ type: 'not-tool-call', value: 'Edit' })).toMatchObject({ pass: true });
    expect(
      await check({ type: 'tool-call', value: 'Read', arguments: { file_path: 'README.md' } }),
    ).toMatchObject({
      pass: false,
    });
  });

  it('turn-count, end-reason and tool-error-count', async () => {
    expect(await check({ type: 'turn-count', max: 5 })).toMatchObject({
      pass: true,
      reason: '4 turns, within <= 5',
    });
    expect(await check({ type: 'turn-count', min: 5 })).toMatchObject({ pass: false });
    expect(await check({ type: 'end-reason', value: 'done' })).toMatchObject({
      pass: true,
      reason: 'the agent ended with done after 4 turn(s)',
    });
    expect(await check({ type: 'end-reason', value: ['max_turns', 'timeout'] })).toMatchObject({
      pass: false,
    });
    expect(await check({ type: 'tool-error-count', max: 0 })).toMatchObject({
      pass: false,
      reason: '1 tool errors, above the maximum 0 (Bash)',
    });
  });

  it('a command in the workspace reads the result recorded at the end of the case', async () => {
    expect(await check({ type: 'command', value: ['npm', 'test'], in: 'workspace' })).toMatchObject({
      pass: false,
      reason: 'npm exited with code 1: 2 tests failed',
    });
    expect(
      await check({ type: 'not-command', value: ['npm', 'test'], in: 'workspace', name: 'renamed' }),
    ).toMatchObject({
      pass: true,
    });
    expect(await check({ type: 'command', value: ['pytest', '-q'], in: 'workspace' })).toMatchObject({
      pass: false,
      error: true,
    });
  });

  it('the agent types cannot judge an output without an agent run', async () => {
    const [outcome] = await runChecks({
      output: 'x',
      vars: {},
      checks: [{ type: 'turn-count', max: 3 }],
      baseDir: fixtures,
      env: {},
    });
    expect(outcome).toMatchObject({ pass: false, error: true });
  });
});
