import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { createClaudeCliProvider } from '../../src/providers/adapters/claude-cli.js';
import {
  CODEX_NO_SYSTEM_INSTRUCTIONS,
  CODEX_TOOLS_OFF,
  createCodexCliProvider,
} from '../../src/providers/adapters/codex-cli.js';
import { createCommandProvider } from '../../src/providers/adapters/command.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { type CompletionRequest, type Provider, ProviderError } from '../../src/providers/types.js';

const BIN = resolve(import.meta.dirname, '../fixtures/bin');
const CLAUDE = join(BIN, 'fake-claude.mjs');
const CODEX = join(BIN, 'fake-codex.mjs');
const COMMAND = join(BIN, 'fake-command.mjs');

let dir: string;
let argvLog: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'providers-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const baseEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  argvLog = join(dir, `argv-${Math.random().toString(36).slice(2)}.jsonl`);
  return { PATH: process.env['PATH'], HOME: process.env['HOME'], FAKE_CLI_ARGV_LOG: argvLog, ...extra };
};
const user = (content: string): CompletionRequest => ({ messages: [{ role: 'user', content }] });

// A prompt shape (docs/design/prompt-shapes.md): a template message, then the case's conversation
// with a tool turn.
const SHAPED: CompletionRequest = {
  system: 'You are the support desk.',
  messages: [
    { role: 'user', content: 'Tier: gold' },
    { role: 'user', content: 'Where is order A17?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: 'A17' } }] },
    { role: 'tool', toolCallId: 'c1', content: 'shipped' },
    { role: 'user', content: 'And when does it arrive?' },
  ],
  shaped: true,
};
const SHAPED_TRANSCRIPT = [
  'User:\nTier: gold',
  'User:\nWhere is order A17?',
  'Assistant:\nTool call c1: lookup {"id":"A17"}',
  'Tool result (c1):\nshipped',
  'User:\nAnd when does it arrive?',
].join('\n\n');
const SCHEMA = { type: 'object', properties: { eta: { type: 'string' } }, required: ['eta'] };
const TOOLS = [{ name: 'lookup', description: 'Find an order', parameters: { type: 'object' } }];

async function loggedCall(): Promise<{ argv: string[]; cwd: string; stdin: string }> {
  const [line] = (await readFile(argvLog, 'utf8')).trim().split('\n');
  return JSON.parse(line ?? '{}');
}

async function loggedClaudeCall(): Promise<{ argv: string[]; cwd: string; env: Record<string, string> }> {
  return (await loggedCall()) as unknown as { argv: string[]; cwd: string; env: Record<string, string> };
}

async function loggedCodexCall(): Promise<{ argv: string[]; cwd: string; instructions: string }> {
  return (await loggedCall()) as unknown as { argv: string[]; cwd: string; instructions: string };
}

async function failure(provider: Provider, request: CompletionRequest = user('x')): Promise<ProviderError> {
  const error = await provider.complete(request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

async function abortsWithinASecond(provider: Provider) {
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(), 200);
  const error = await failure(provider, { ...user('x'), signal: controller.signal });
  expect(error.kind).toBe('aborted');
  expect(performance.now() - started).toBeLessThan(1200);
}

describe('claude-cli adapter', () => {
  const entry = (over: Partial<ModelEntry> = {}): ModelEntry => ({
    provider: 'claude-cli',
    model: 'claude-sonnet-4-5',
    binary: CLAUDE,
    ...over,
  });

  it('runs print mode with tools off and reads result, usage and the reported cost', async () => {
    const env = baseEnv();
    const provider = createClaudeCliProvider(entry({ params: { effort: 'low' } }), { env });
    const result = await provider.complete({ ...user('write a haiku'), system: 'you are terse' });
    expect(result.text).toBe('echo: write a haiku');
    expect(result.usage).toEqual({ inputTokens: 111, outputTokens: 7, cacheWriteTokens: 100 });
    expect(result.costUsd).toBe(0.0123);
    const call = await loggedCall();
    expect(call.stdin).toBe('write a haiku');
    expect(call.argv).toEqual(expect.arrayContaining(['--model', 'claude-sonnet-4-5', '--effort', 'low']));
    expect(call.argv[call.argv.indexOf('--system-prompt') + 1]).toBe('you are terse');
    expect(call.cwd).not.toBe(process.cwd());
  });

  it('sends no agent system prompt and turns off retries, side traffic and auto memory', async () => {
    const provider = createClaudeCliProvider(entry(), { env: baseEnv({ CLAUDE_CODE_MAX_RETRIES: '8' }) });
    await provider.complete(user('plain'));
    const call = await loggedClaudeCall();
    expect(call.argv[call.argv.indexOf('--system-prompt') + 1]).toBe('');
    expect(call.env).toMatchObject({
      CLAUDE_CODE_MAX_RETRIES: '0',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    });
  });

  it('stops the run on a rejected key (api_error_status 401) and retries a 429', async () => {
    const auth = await failure(
      createClaudeCliProvider(entry(), { env: baseEnv({ FAKE_CLAUDE_MODE: 'api-401' }) }),
    );
    expect(auth.kind).toBe('auth');
    expect(auth.stopsRun).toBe(true);
    expect(auth.message).toContain('Failed to authenticate');
    const limited = await failure(
      createClaudeCliProvider(entry(), { env: baseEnv({ FAKE_CLAUDE_MODE: 'api-429' }) }),
    );
    expect(limited.kind).toBe('rate_limit');
    expect(limited.retryable).toBe(true);
  });

  it('finds the binary through AUTORESEARCH_CLAUDE_BIN', async () => {
    const provider = createClaudeCliProvider(
      { provider: 'claude-cli' },
      { env: baseEnv({ AUTORESEARCH_CLAUDE_BIN: CLAUDE }) },
    );
    expect((await provider.complete(user('hi'))).text).toBe('echo: hi');
    expect((await loggedCall()).argv).not.toContain('--model');
  });

  it('prefers an entry price over the reported cost', async () => {
    const provider = createClaudeCliProvider(entry({ price: { input_per_mtok: 1, output_per_mtok: 1 } }), {
      env: baseEnv(),
    });
    expect((await provider.complete(user('hi'))).costUsd).toBeCloseTo(118 / 1e6, 12);
  });

  it.each([
    ['error', 'server'],
    ['credit', 'credit'],
    ['auth', 'auth'],
    ['crash', 'process'],
    ['garbage', 'malformed'],
  ])('maps FAKE_CLAUDE_MODE=%s to %s', async (mode, kind) => {
    const error = await failure(
      createClaudeCliProvider(entry(), { env: baseEnv({ FAKE_CLAUDE_MODE: mode }) }),
    );
    expect(error.kind).toBe(kind);
    if (mode === 'crash') expect(error.message).toContain('TypeError: something broke');
  });

  it('says where to get the binary when it is missing', async () => {
    const error = await failure(
      createClaudeCliProvider(entry({ binary: join(dir, 'no-such-claude') }), { env: baseEnv() }),
    );
    expect(error.kind).toBe('process');
    expect(error.message).toContain('AUTORESEARCH_CLAUDE_BIN');
  });

  it('sends a conversation as the transcript, the schema as --json-schema, and refuses tools', async () => {
    const provider = createClaudeCliProvider(entry(), { env: baseEnv() });
    const result = await provider.complete({ ...SHAPED, output: { name: 'eta', schema: SCHEMA } });
    const call = await loggedCall();
    expect(call.stdin).toBe(SHAPED_TRANSCRIPT);
    expect(call.argv[call.argv.indexOf('--system-prompt') + 1]).toBe('You are the support desk.');
    expect(JSON.parse(call.argv[call.argv.indexOf('--json-schema') + 1] ?? '')).toEqual(SCHEMA);
    expect(JSON.parse(result.text)).toEqual({ prompt: SHAPED_TRANSCRIPT });
    const refused = await failure(provider, { ...user('x'), tools: TOOLS });
    expect(refused.kind).toBe('bad_request');
    expect(refused.message).toContain('cannot offer tools');
  });

  it('kills a hung CLI at timeout_s and on abort within a second', async () => {
    const env = baseEnv({ FAKE_CLAUDE_MODE: 'hang' });
    expect((await failure(createClaudeCliProvider(entry({ timeout_s: 0.3 }), { env }))).kind).toBe('timeout');
    await abortsWithinASecond(createClaudeCliProvider(entry(), { env }));
  });
});

describe('codex-cli adapter', () => {
  const entry = (over: Partial<ModelEntry> = {}): ModelEntry => ({
    provider: 'codex-cli',
    model: 'gpt-5-codex',
    binary: CODEX,
    ...over,
  });

  it('runs codex exec with JSON events and reads the final agent message and usage', async () => {
    const provider = createCodexCliProvider(entry({ params: { model_reasoning_effort: 'low' } }), {
      env: baseEnv(),
    });
    const result = await provider.complete({ ...user('summarise "this"'), system: 'be "careful"' });
    expect(result.text).toBe('echo: summarise "this"');
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 9, cacheReadTokens: 5 });
    // gpt-5: the 5 cached input tokens at its cached-input price.
    expect(result.costUsd).toBeCloseTo((15 * 1.25 + 5 * 0.125 + 9 * 10) / 1e6, 12);
    const { argv, stdin } = await loggedCall();
    expect(stdin).toBe('summarise "this"');
    expect(argv).toEqual(expect.arrayContaining(['-m', 'gpt-5-codex', '-c', 'model_reasoning_effort="low"']));
    expect(argv.some((arg) => arg.startsWith('developer_instructions'))).toBe(false);
    expect((await loggedCodexCall()).instructions).toBe('be "careful"');
  });

  it('replaces its agent instructions with the system prompt, in a file removed after the call', async () => {
    const provider = createCodexCliProvider(entry(), { env: baseEnv() });
    await provider.complete(user('q'));
    const call = await loggedCodexCall();
    expect(call.instructions).toBe(CODEX_NO_SYSTEM_INSTRUCTIONS);
    const setting = call.argv.find((arg) => arg.startsWith('model_instructions_file='));
    const path = JSON.parse(setting?.slice('model_instructions_file='.length) ?? '""') as string;
    expect(path).not.toContain(call.cwd);
    await expect(readFile(path, 'utf8')).rejects.toThrow(/ENOENT/);
    for (const off of CODEX_TOOLS_OFF) expect(call.argv[call.argv.indexOf(off) - 1]).toBe('-c');
  });

  it('sends a conversation as the transcript and the schema through --output-schema, and refuses tools', async () => {
    const provider = createCodexCliProvider(entry(), { env: baseEnv() });
    await provider.complete({ ...SHAPED, output: { name: 'eta', schema: SCHEMA } });
    const call = (await loggedCall()) as unknown as {
      argv: string[];
      stdin: string;
      instructions: string;
      schema: string;
    };
    expect(call.stdin).toBe(SHAPED_TRANSCRIPT);
    expect(call.instructions).toBe('You are the support desk.');
    expect(JSON.parse(call.schema)).toEqual(SCHEMA);
    await expect(readFile(call.argv[call.argv.indexOf('--output-schema') + 1] ?? '', 'utf8')).rejects.toThrow(
      /ENOENT/,
    );
    const refused = await failure(provider, { ...user('x'), tools: TOOLS });
    expect(refused.kind).toBe('bad_request');
    expect(refused.message).toContain('cannot offer tools');
  });

  it('reports "ignoring unrecognized configuration" as a run warning, once per run', async () => {
    const warnings: string[] = [];
    const pool = createModelPool({
      models: { generator: entry({ params: { not_a_key: 1 } }) },
      concurrency: 1,
      env: baseEnv({ FAKE_CODEX_MODE: 'ignored-config' }),
      retry: { sleep: async () => undefined },
      onWarning: (message) => warnings.push(message),
    });
    try {
      expect((await pool.client('generator').complete(user('a'))).text).toBe('fine');
      expect((await pool.client('generator').complete(user('b'))).text).toBe('fine');
    } finally {
      await pool.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ignoring 1 unrecognized configuration');
    expect(warnings[0]).toContain('`not_a_key`');
  });

  it.each([
    ['fail', 'server'],
    ['usage-limit', 'credit'],
    ['crash', 'process'],
    ['no-message', 'malformed'],
  ])('maps FAKE_CODEX_MODE=%s to %s', async (mode, kind) => {
    const error = await failure(createCodexCliProvider(entry(), { env: baseEnv({ FAKE_CODEX_MODE: mode }) }));
    expect(error.kind).toBe(kind);
  });

  it('finds the binary through AUTORESEARCH_CODEX_BIN and aborts within a second', async () => {
    const ok = createCodexCliProvider(
      { provider: 'codex-cli' },
      { env: baseEnv({ AUTORESEARCH_CODEX_BIN: CODEX }) },
    );
    expect((await ok.complete(user('hi'))).costUsd).toBeNull();
    await abortsWithinASecond(createCodexCliProvider(entry(), { env: baseEnv({ FAKE_CODEX_MODE: 'hang' }) }));
  });
});

describe('command adapter', () => {
  const entry = (over: Partial<ModelEntry> = {}): ModelEntry => ({
    provider: 'command',
    command: [process.execPath, COMMAND],
    ...over,
  });

  it('passes the prompt on stdin and returns stdout', async () => {
    const provider = createCommandProvider(entry(), { env: baseEnv() });
    const result = await provider.complete(user('hello there'));
    expect(result.text).toBe('out: hello there');
    expect(result.costUsd).toBeNull();
    const withSystem = await provider.complete({ ...user('q'), system: 'SYS' });
    expect(withSystem.text).toBe('out: SYS\n\nq');
  });

  it('sends a prompt shape as the JSON request, and says which input it sent', async () => {
    const provider = createCommandProvider(entry(), { env: baseEnv({ FAKE_COMMAND_MODE: 'input-kind' }) });
    const shaped = await provider.complete({ ...SHAPED, output: { name: 'eta', schema: SCHEMA } });
    expect(shaped.text.startsWith('json: ')).toBe(true);
    expect(shaped.text.slice('json: '.length)).toBe(
      JSON.stringify({
        system: 'You are the support desk.',
        messages: [
          { role: 'user', content: 'Tier: gold' },
          { role: 'user', content: 'Where is order A17?' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'c1', name: 'lookup', arguments: { id: 'A17' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'shipped' },
          { role: 'user', content: 'And when does it arrive?' },
        ],
        output: { name: 'eta', schema: SCHEMA },
        tools: null,
      }),
    );
    expect((await provider.complete({ ...user('q'), system: 'SYS' })).text).toBe('text: SYS\n\nq');
  });

  it('reads a JSON reply with tool calls when the request offered tools', async () => {
    const provider = createCommandProvider(entry(), { env: baseEnv({ FAKE_COMMAND_MODE: 'tool-call' }) });
    const result = await provider.complete({ ...user('Where is A17?'), tools: TOOLS });
    expect(result.text).toBe('Looking it up.');
    expect(result.toolCalls).toEqual([
      { id: 'call_1', name: 'lookup', arguments: { asked: 'Where is A17?' } },
    ]);
    // Without tools offered, stdout is the text even when it looks like a reply object.
    const plain = createCommandProvider(entry({ command: [process.execPath, COMMAND, '--prefix', ''] }), {
      env: baseEnv(),
    });
    const echoed = await plain.complete(user('{"text":"a","tool_calls":[]}'));
    expect(echoed.text).toBe('{"text":"a","tool_calls":[]}');
    expect(echoed.toolCalls).toBeUndefined();
  });

  it('writes the prompt to a file when input is file, substituting {prompt_file}', async () => {
    const provider = createCommandProvider(
      entry({
        input: 'file',
        command: [process.execPath, COMMAND, '--file', '{prompt_file}', '--prefix', 'F: '],
      }),
      { env: baseEnv() },
    );
    expect((await provider.complete(user('from a file'))).text).toBe('F: from a file');
  });

  it('writes the JSON request to request.json when input is file', async () => {
    const script = join(dir, 'name-and-body.mjs');
    await writeFile(
      script,
      "import { readFileSync } from 'node:fs';\nimport { basename } from 'node:path';\nprocess.stdout.write(basename(process.argv[2]) + ' ' + readFileSync(process.argv[2], 'utf8'));\n",
    );
    const provider = createCommandProvider(entry({ input: 'file', command: [process.execPath, script] }), {
      env: baseEnv(),
    });
    const result = await provider.complete({ ...user('hi'), system: 'S', shaped: true });
    expect(result.text).toBe(
      'request.json {"system":"S","messages":[{"role":"user","content":"hi"}],"output":null,"tools":null}',
    );
  });

  it('appends the prompt file path when argv does not name it', async () => {
    const script = join(dir, 'cat-arg.mjs');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(
        script,
        "import { readFileSync } from 'node:fs';\nprocess.stdout.write('got ' + readFileSync(process.argv[2], 'utf8'));\n",
      ),
    );
    const provider = createCommandProvider(entry({ input: 'file', command: [process.execPath, script] }), {
      env: baseEnv(),
    });
    expect((await provider.complete(user('appended'))).text).toBe('got appended');
  });

  it('turns a non-zero exit into a process error quoting the last stderr lines', async () => {
    const error = await failure(
      createCommandProvider(entry(), { env: baseEnv({ FAKE_COMMAND_MODE: 'fail' }) }),
    );
    expect(error.kind).toBe('process');
    expect(error.message).toContain('exited with code 4');
    expect(error.message).toContain('fatal: model file missing');
    expect(error.message).not.toContain('starting');
  });

  it('never goes through a shell', async () => {
    const provider = createCommandProvider(
      entry({ command: [process.execPath, COMMAND, '--prefix', '$(echo injected) ; '] }),
      { env: baseEnv() },
    );
    expect((await provider.complete(user('x'))).text).toBe('$(echo injected) ; x');
  });

  it('prices with an entry price (no usage reported) and aborts within a second', async () => {
    const priced = createCommandProvider(entry({ price: { input_per_mtok: 1, output_per_mtok: 1 } }), {
      env: baseEnv(),
    });
    expect((await priced.complete(user('x'))).costUsd).toBe(0);
    await abortsWithinASecond(
      createCommandProvider(entry(), { env: baseEnv({ FAKE_COMMAND_MODE: 'hang' }) }),
    );
  });
});
