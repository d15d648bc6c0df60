// The user's real Claude Code and Codex (test/helpers/pinned-clis.js) as a judge or grader
// *program* (`command: [claude, …]`), with no login in their HOME: the run says why the CLI
// failed (both print it on stdout), does not run a refused login again, and points at the
// CLI's own login. Codex talks to the fake LLM server (its base URL in its `-c` settings);
// Claude Code without a login stops before any request. No test reaches the network.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { Rubric } from '../../src/experiment/types.js';
import { runGrader } from '../../src/grader/run-grader.js';
import { runJudge } from '../../src/judge/run-judge.js';
import { CODEX_EXTRAS_OFF, CODEX_TOOLS_OFF } from '../../src/providers/adapters/codex-cli.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { pinnedCli } from '../helpers/pinned-clis.js';

const KEY = 'sk-fake-cli-program-key';
const rubric = parseRubric('rubric.md', '## Criteria\n\n### Clarity\n').rubric as Rubric;
const outputs = [{ caseId: 'a', sample: 0, text: 'an answer' }];
let server: FakeLlmServer;
let work: string;
let tmpRoot: string;

beforeAll(async () => {
  server = await startFakeLlmServer({ requireKey: KEY, respond: () => 'fine' });
  work = await mkdtemp(join(tmpdir(), 'real-cli-programs-'));
  tmpRoot = await mkdtemp(join(tmpdir(), 'real-cli-programs-sandboxes-'));
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
  await rm(tmpRoot, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  server.configure({ faults: [] });
});

/** The runner's environment: an empty HOME and CODEX_HOME (no login), and a key of its own that must never show. */
const runnerEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'],
  HOME: work,
  CODEX_HOME: work,
  ANTHROPIC_API_KEY: 'sk-ant-runner-secret-0123456789',
});

/** Codex against the fake server, its own retries and every other host off. */
const codexCommand = (): string[] => [
  pinnedCli('codex'),
  'exec',
  '--json',
  '--ephemeral',
  '--skip-git-repo-check',
  ...[
    ...CODEX_TOOLS_OFF,
    ...CODEX_EXTRAS_OFF,
    'model_provider="fake"',
    'model_providers.fake.name="fake"',
    'model_providers.fake.wire_api="responses"',
    'model_providers.fake.requires_openai_auth=true',
    'model_providers.fake.request_max_retries=0',
    'model_providers.fake.stream_max_retries=0',
    `model_providers.fake.base_url="${server.openaiBaseUrl}"`,
  ].flatMap((setting) => ['-c', setting]),
  'Score the outputs into judge-scores.json',
];

const judgeWith = (command: string[]) =>
  runJudge({
    outputs,
    rubric,
    judge: { command },
    seed: 1,
    timeoutMs: 60_000,
    attempts: 2,
    env: runnerEnv(),
    tmpRoot,
  });

describe('claude and codex as judge and grader programs', () => {
  it('a claude judge without a login says so, once, with the login to fix it', async () => {
    const result = await judgeWith([
      pinnedCli('claude'),
      '-p',
      '--output-format',
      'json',
      'Score the outputs',
    ]);
    expect(result).toMatchObject({ ok: false, kind: 'judge_error', attempts: 1 });
    if (result.ok) return;
    expect(result.message).toMatch(/^the judge exited with code 1: Claude Code .*Not logged in/);
    expect(result.providerError?.kind).toBe('auth');
    expect(result.providerError?.hint).toMatch(/claude auth login/);
  }, 60_000);

  it('a claude grader in text mode: the same', async () => {
    const result = await runGrader({
      expectations: ['Says hello'],
      vars: {},
      model: 'fake',
      outputs: [{ sample: 0, text: 'hello' }],
      grader: { command: [pinnedCli('claude'), '-p', 'Grade the outputs'] },
      timeoutMs: 60_000,
      attempts: 2,
      env: runnerEnv(),
      tmpRoot,
    });
    expect(result).toMatchObject({ ok: false, kind: 'grader_error', attempts: 1 });
    if (result.ok) return;
    expect(result.message).toMatch(/^the grader exited with code 1: Claude Code said: Not logged in/);
    expect(result.providerError?.kind).toBe('auth');
  }, 60_000);

  it('a codex judge whose call is refused (no key) fails as auth after one request', async () => {
    const result = await judgeWith(codexCommand());
    expect(result).toMatchObject({ ok: false, kind: 'judge_error', attempts: 1 });
    if (result.ok) return;
    expect(result.message).toMatch(/^the judge exited with code 1: Codex reported an error: .*401/);
    expect(result.providerError?.kind).toBe('auth');
    expect(result.providerError?.hint).toMatch(/codex login/);
    expect(server.log.filter((entry) => entry.path === '/v1/responses')).toHaveLength(1);
  }, 60_000);

  it('a codex judge that meets server trouble is run again, and the reason is kept', async () => {
    server.configure({ faults: ['server_error', 'server_error'] });
    const result = await judgeWith(codexCommand());
    expect(result).toMatchObject({ ok: false, kind: 'judge_error', attempts: 2 });
    if (result.ok) return;
    expect(result.message).toMatch(
      /^the judge exited with code 1: Codex reported an error: .*\(after 2 attempts\)$/,
    );
    expect(result.providerError).toBeUndefined();
  }, 120_000);

  it('never shows a secret of the runner that a CLI printed', async () => {
    const script = join(work, 'claude');
    // A stand-in named `claude` that repeats a key it could only have got from the runner.
    await writeFile(
      script,
      `#!/bin/sh\necho '{"type":"result","is_error":true,"subtype":"success","result":"bad key sk-ant-runner-secret-0123456789 and runner-token-value-42"}'\nexit 1\n`,
    );
    await chmod(script, 0o755);
    const result = await runJudge({
      outputs,
      rubric,
      judge: { command: [script] },
      seed: 1,
      timeoutMs: 20_000,
      attempts: 1,
      env: { ...runnerEnv(), SOME_TOKEN: 'runner-token-value-42' },
      tmpRoot,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('bad key [redacted] and [redacted]');
    expect(result.message).not.toMatch(/secret-0123|token-value/);
  });
});
