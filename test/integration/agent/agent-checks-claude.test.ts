/**
 * The checks on an agent's files and actions with the real Claude Code (test/helpers/pinned-clis.js)
 * against the fake server: `eval` through the built CLI on one case whose scripted turns make
 * Claude Code's real tools act in its sandboxed workspace — Read the notes, Write
 * RELEASE_NOTES.md, and a Bash command that fails. A path check and a command run in a copy of the
 * finished workspace then see the file the Write tool made; tool-call, turn-count, end-reason and
 * tool-error-count read what the CLI's stream said. Needs `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChecksFile } from '../../../src/checks/check-result.js';
import { cleanEnv, requireBuiltCli, runBuiltCli, runFolders } from '../../helpers/built-cli.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import { pinnedCli } from '../../helpers/pinned-clis.js';
import { createTempRepo, type TempRepo } from '../../helpers/temp-repo.js';

const KEY = 'sk-agent-checks-key-7';
let server: FakeLlmServer;
let repo: TempRepo;

/** Read the notes, write the release notes, run a command that fails, then say so. */
function agentTurn(req: FakeRequest) {
  const done = req.messages.filter((m) => m.role === 'tool').length;
  if (done === 0)
    return {
      toolCalls: [{ id: 'read_0', name: 'Read', arguments: { file_path: '/workspace/notes/changes.md' } }],
    };
  if (done === 1)
    return {
      toolCalls: [
        {
          id: 'write_1',
          name: 'Write',
          arguments: {
            file_path: '/workspace/RELEASE_NOTES.md',
            content: '# 1.0.0\n\n## Fixed\n- Export works.\n',
          },
        },
      ],
    };
  if (done === 2)
    return { toolCalls: [{ id: 'bash_2', name: 'Bash', arguments: { command: 'cat no-such-file.txt' } }] };
  return 'Wrote RELEASE_NOTES.md.';
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({ requireKey: KEY });
  server.configure({ respond: (req) => agentTurn(req) });
  repo = await createTempRepo({
    files: {
      'exp/SKILL.md':
        '---\nname: release-notes\ndescription: Release notes.\n---\n\nWrite RELEASE_NOTES.md.\n',
      'exp/cases.yaml': '- { id: r1, vars: { version: "1.0.0" }, fixtures: cases/r1 }\n',
      'exp/cases/r1/notes/changes.md': 'Fixed the export button.\n',
      'exp/experiment.yaml': [
        'name: notes-checks-claude',
        'prompt: SKILL.md',
        'cases: cases.yaml',
        'agent: { place: skill, name: release-notes, task: "Write the release notes for {{version}}.", tools: [Read, Write, Bash], max_turns: 8, timeout_s: 120 }',
        'models:',
        `  generator: { provider: claude-cli, model: sonnet, binary: ${JSON.stringify(pinnedCli('claude'))} }`,
        'checks:',
        '  - { type: file-exists, value: RELEASE_NOTES.md, name: exists }',
        '  - { type: contains, value: "## Fixed", file: RELEASE_NOTES.md, name: fixed-section }',
        '  - { type: command, value: [grep, -q, "## Fixed", RELEASE_NOTES.md], in: workspace, name: grep-in-workspace }',
        '  - { type: tool-call, value: Write, arguments: { file_path: /workspace/RELEASE_NOTES.md }, name: wrote }',
        '  - { type: turn-count, max: 8 }',
        '  - { type: end-reason, value: done }',
        '  - { type: tool-error-count, max: 0 }',
        'scoring: { weights: { checks: 1, judge: 0, expectations: 0 } }',
        'search: { holdout: 0, acceptance: margin }',
      ].join('\n'),
    },
    config: { 'user.name': 'Test', 'user.email': 'test@example.com' },
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await repo?.cleanup();
});

describe('checks on what the real Claude Code did', () => {
  it('see the file its Write tool made, in the record and in a copy of its workspace', async () => {
    const result = await runBuiltCli(['eval', 'exp'], {
      cwd: repo.dir,
      env: cleanEnv({ ...repo.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBeLessThan(2);
    const [runId = ''] = runFolders(repo.path('runs'));
    const checks = ChecksFile.parse(
      JSON.parse(await readFile(repo.path(`runs/${runId}/iterations/0000/candidates/0/checks.json`), 'utf8')),
    );
    const by = Object.fromEntries((checks.results[0]?.outcomes ?? []).map((o) => [o.name, o]));
    expect(by['exists']).toMatchObject({ pass: true, reason: 'RELEASE_NOTES.md exists' });
    expect(by['fixed-section']).toMatchObject({
      pass: true,
      reason: 'RELEASE_NOTES.md: output contains "## Fixed"',
    });
    expect(by['grep-in-workspace']).toMatchObject({ pass: true, reason: 'grep exited with code 0' });
    expect(by['wrote']).toMatchObject({ pass: true });
    expect(by['turn-count: <= 8']).toMatchObject({ pass: true });
    expect(by['end-reason: done']).toMatchObject({ pass: true });
    // Claude Code reported the failed `cat` as an error result.
    expect(by['tool-error-count: <= 0']).toMatchObject({
      pass: false,
      reason: '1 tool errors, above the maximum 0 (Bash)',
    });
    const calls = JSON.parse(
      await readFile(
        join(repo.path(`runs/${runId}/iterations/0000/candidates/0/agent/r1.0`), 'tool-calls.json'),
        'utf8',
      ),
    ) as { calls: { name: string; error: boolean }[] };
    expect(calls.calls.map((c) => [c.name, c.error])).toEqual([
      ['Read', false],
      ['Write', false],
      ['Bash', true],
    ]);
  }, 120_000);
});
