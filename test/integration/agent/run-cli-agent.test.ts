// The real Claude Code and Codex (test/helpers/pinned-clis.js) as agents through runCliAgent,
// against the shared fake LLM server, whose scripted tool calls make the CLIs' real tools act in
// the sandboxed workspace: files written there, a shell run there, the transcript, the limits
// (max turns, a timeout that kills everything), the cache, and that nothing outside the
// workspace is read or changed and no real key reaches the agent. One server for the file.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AgentModelCall,
  AgentRunContext,
  AgentRunRequest,
  TranscriptEntry,
} from '../../../src/agent/agent-run.js';
import { runCliAgent, STREAM_LOG } from '../../../src/agent/cli/run-cli-agent.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import { pinnedCli } from '../../helpers/pinned-clis.js';
import { processesMentioning } from '../../helpers/process-scan.js';

const KEY = 'sk-real-agent-key-0123456789';
let server: FakeLlmServer;
let root: string;
let home: string;
let project: string;
let other: string;

type Step = { tool: string; args: Record<string, unknown> } | string;

/** Each request answered with the step after the tool results it already holds. */
function script(steps: Step[]) {
  return (req: FakeRequest) => {
    const done = req.messages.filter((m) => m.role === 'tool').length;
    const step = steps[done] ?? 'finished';
    if (typeof step === 'string') return step;
    return { toolCalls: [{ id: `call_${done}`, name: step.tool, arguments: step.args }] };
  };
}

beforeAll(async () => {
  server = await startFakeLlmServer({ requireKey: KEY });
  root = await mkdtemp(join(tmpdir(), 'agent-cli-'));
  home = join(root, 'home');
  project = join(root, 'project');
  other = join(root, 'other-workspace');
  for (const dir of [home, project, other]) await mkdir(dir);
  await writeFile(join(home, 'secret.txt'), 'home secret\n');
  await writeFile(join(project, 'autoresearch.yaml'), 'project file\n');
  await mkdir(join(project, 'runs', 'r1'), { recursive: true });
  await writeFile(join(project, 'runs', 'r1', 'run.json'), '{"run":"record"}\n');
  await writeFile(join(other, 'case.txt'), 'another case\n');
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => server.reset());

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(root, 'ws-'));
  await writeFile(join(dir, 'input.txt'), 'fixture\n');
  return dir;
}

function runnerEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: home,
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: server.url,
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: server.openaiBaseUrl,
  };
}

async function run(
  agent: 'claude' | 'codex',
  ws: string,
  limits: Partial<AgentRunRequest['limits']> = {},
  extra: Partial<AgentRunContext> = {},
) {
  const calls: AgentModelCall[] = [];
  const request: AgentRunRequest = {
    agent,
    binary: pinnedCli(agent),
    workspace: ws,
    task: 'Do the task.',
    ...(agent === 'codex' ? { model: 'gpt-5.5' } : {}),
    limits: { maxTurns: 10, timeoutMs: 60_000, ...limits },
  };
  const result = await runCliAgent(request, {
    recordDir: join(ws, '..', `${ws.split('/').at(-1)}-record`),
    sampleIndex: 0,
    env: runnerEnv(),
    isolation: 'os',
    onModelCall: (call) => calls.push(call),
    ...extra,
  });
  return { result, calls };
}

const toolCalls = (t: TranscriptEntry[]) => t.filter((e) => e.kind === 'tool_call');
const toolResults = (t: TranscriptEntry[]) =>
  t.filter((e): e is Extract<TranscriptEntry, { kind: 'tool_result' }> => e.kind === 'tool_result');

describe('Claude Code as an agent', () => {
  it('writes a file and runs a shell in the workspace, and the transcript shows both', async () => {
    server.configure({
      respond: script([
        { tool: 'Write', args: { file_path: '/workspace/notes/out.txt', content: 'written by the agent\n' } },
        { tool: 'Bash', args: { command: 'pwd; echo $((6*7)) > shell.txt; id -u' } },
        'All done.',
      ]),
    });
    const ws = await workspace();
    const { result, calls } = await run('claude', ws);
    expect(result.error).toBeUndefined();
    expect(result.endReason).toBe('done');
    expect(await readFile(join(ws, 'notes', 'out.txt'), 'utf8')).toBe('written by the agent\n');
    expect(await readFile(join(ws, 'shell.txt'), 'utf8')).toBe('42\n');
    expect(toolCalls(result.transcript).map((e) => e.kind === 'tool_call' && e.tool)).toEqual([
      'Write',
      'Bash',
    ]);
    expect(toolResults(result.transcript)[1]?.content).toMatch(/^\/workspace\n65534/);
    expect(result.finalMessage).toBe('All done.');
    expect(result.turns).toBe(3);
    expect(result.reportedCostUsd).toBeGreaterThan(0);
    expect(calls).toHaveLength(server.log.length);
    expect(calls.every((call) => call.ok && !call.cached)).toBe(true);
  }, 60_000);
});

describe('a model call the API refuses for now', () => {
  it('is retried by the proxy with backoff, so an overloaded or rate-limited API does not end the case', async () => {
    server.configure({ respond: script(['Done after the retries.']) });
    server.queueFaults('overloaded', 'rate_limit');
    const { result, calls } = await run('claude', await workspace());
    expect(result.endReason).toBe('done');
    expect(result.finalMessage).toBe('Done after the retries.');
    expect(server.log.map((entry) => entry.status)).toEqual([529, 429, 200]);
    expect(calls).toEqual([expect.objectContaining({ ok: true, attempts: 3 })]);
  }, 60_000);

  it('passes an error no retry would change to the CLI after one attempt', async () => {
    server.configure({ respond: script(['Answered the second request.']) });
    server.queueFaults({ kind: 'bad_request', message: 'this model is not offered on this key' });
    const { calls } = await run('claude', await workspace());
    // The proxy made one attempt and gave the CLI the 400; whatever came next was the CLI's own
    // new request (Claude Code makes one more after some 400s), not a retry of ours.
    expect(server.log[0]).toMatchObject({ status: 400, fault: 'bad_request' });
    expect(calls[0]).toMatchObject({ ok: false, attempts: 1 });
    expect(calls).toHaveLength(server.log.length);
  }, 60_000);
});

describe('judging.limits', () => {
  it('bound the agent and what its tools start: a file cannot grow past disk_mb', async () => {
    server.configure({
      respond: script([
        { tool: 'Bash', args: { command: 'head -c 6000000 /dev/zero > big.bin; echo "exit $?"' } },
        'Tried.',
      ]),
    });
    const ws = await workspace();
    const { result } = await run('claude', ws, {}, { limits: { memory_mb: 2048, tmp_mb: 64, disk_mb: 4 } });
    // Stopped at 4 MB, by RLIMIT_FSIZE or by the disk watcher; with the default limits it would be 6 MB.
    const size = await stat(join(ws, 'big.bin')).then((s) => s.size);
    expect(size).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(
      result.endReason === 'error' || /exit 153|File size limit/i.test(JSON.stringify(result.transcript)),
    ).toBe(true);
  }, 60_000);
});

describe('a skill in the workspace', () => {
  it('is offered to Claude Code and read when the model uses it', async () => {
    server.configure({ respond: script([{ tool: 'Skill', args: { skill: 'release-notes' } }, 'Used it.']) });
    const ws = await workspace();
    await mkdir(join(ws, '.claude', 'skills', 'release-notes'), { recursive: true });
    await writeFile(
      join(ws, '.claude', 'skills', 'release-notes', 'SKILL.md'),
      '---\nname: release-notes\ndescription: Turns notes into release notes.\n---\nGroup the notes by area.\n',
    );
    const { result } = await run('claude', ws);
    expect(result.endReason).toBe('done');
    expect(JSON.stringify(server.log[0]?.body)).toContain('Turns notes into release notes.');
    expect(toolCalls(result.transcript)).toMatchObject([
      { tool: 'Skill', input: { skill: 'release-notes' } },
    ]);
    expect(JSON.stringify(server.log[1]?.body)).toContain('Group the notes by area.');
  }, 60_000);
});

describe('what an agent cannot reach', () => {
  it('leaves the project, its runs/, $HOME and another workspace unread and unchanged, and holds no real key', async () => {
    const targets = [
      join(home, 'secret.txt'),
      join(project, 'autoresearch.yaml'),
      join(project, 'runs', 'r1', 'run.json'),
      join(other, 'case.txt'),
    ];
    const before = await Promise.all(targets.map((path) => readFile(path, 'utf8')));
    const command = [
      ...targets.map((path) => `cat ${path}`),
      ...targets.map((path) => `echo changed >> ${path}`),
      `ls ${root}`,
      'env',
    ].join('; ');
    server.configure({ respond: script([{ tool: 'Bash', args: { command } }, 'Tried.']) });
    const ws = await workspace();
    const { result } = await run('claude', ws);
    expect(result.endReason).toBe('done');
    const output = toolResults(result.transcript)[0]?.content ?? '';
    expect(output).toContain('No such file or directory');
    expect(output).not.toMatch(/home secret|project file|"run"|another case/);
    expect(await Promise.all(targets.map((path) => readFile(path, 'utf8')))).toEqual(before);
    // The agent's key is the proxy's one-time token; the real one never entered the sandbox.
    expect(output).toMatch(/^ANTHROPIC_API_KEY=arp-/m);
    expect(output).not.toContain(KEY);
    const stream = await readFile(join(ws, '..', `${ws.split('/').at(-1)}-record`, STREAM_LOG), 'utf8');
    expect(stream).not.toContain(KEY);
    expect(stream).not.toMatch(/arp-[0-9a-f]{48}/);
  }, 60_000);
});

describe('Codex as an agent', () => {
  it('runs a shell in the workspace that writes a file; the transcript shows the command and its output', async () => {
    server.configure({
      respond: script([
        { tool: 'exec_command', args: { cmd: "printf 'by codex\\n' > codex.txt; pwd; env" } },
        'Wrote it.',
      ]),
    });
    const ws = await workspace();
    const { result, calls } = await run('codex', ws);
    expect(result.error).toBeUndefined();
    expect(result.endReason).toBe('done');
    expect(await readFile(join(ws, 'codex.txt'), 'utf8')).toBe('by codex\n');
    const [call] = toolCalls(result.transcript);
    expect(call).toMatchObject({
      tool: 'exec_command',
      input: { command: expect.stringContaining('codex.txt') },
    });
    const output = toolResults(result.transcript)[0]?.content ?? '';
    expect(output).toMatch(/^\/workspace$/m);
    expect(output).not.toContain(KEY);
    expect(result.finalMessage).toBe('Wrote it.');
    expect(result.turns).toBe(2);
    expect(result.reportedCostUsd).toBeUndefined();
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(calls.map((c) => c.cached)).toEqual([false, false]);
  }, 60_000);

  it('offers only the tools the allow-list names, where Codex has a switch', async () => {
    server.configure({ respond: () => 'Nothing to do.' });
    const offered = async (allowedTools: string[]) => {
      server.reset();
      const { result } = await run('codex', await workspace(), { allowedTools });
      expect(result.endReason).toBe('done');
      return ((server.log[0]?.body?.['tools'] ?? []) as { name?: string; type: string }[]).map(
        (t) => t.name ?? t.type,
      );
    };
    expect(await offered(['exec_command'])).toEqual(['exec_command', 'write_stdin', 'apply_patch']);
    expect(await offered(['view_image'])).toEqual(['apply_patch', 'view_image']);
  }, 60_000);

  it('is stopped at max_turns by the proxy: the call past the limit never reaches the API', async () => {
    let n = 0;
    server.configure({
      respond: () => ({
        toolCalls: [{ id: `call_${n++}`, name: 'exec_command', arguments: { cmd: 'true' } }],
      }),
    });
    const { result } = await run('codex', await workspace(), { maxTurns: 2 });
    expect(result.endReason).toBe('max_turns');
    expect(result.turns).toBe(2);
    expect(server.log.filter((entry) => entry.path === '/v1/responses')).toHaveLength(2);
  }, 60_000);

  it("answers a second case's repeated requests from the cache, in a workspace elsewhere", async () => {
    server.configure({
      respond: script([{ tool: 'exec_command', args: { cmd: 'date > when.txt; ls -l' } }, 'Done.']),
    });
    const cacheDir = join(root, 'cache');
    const first = await run('codex', await workspace(), {}, { cacheDir });
    expect(first.calls.map((c) => c.cached)).toEqual([false, false]);
    server.reset();
    const ws = await workspace();
    const second = await run('codex', ws, {}, { cacheDir });
    expect(second.result.endReason).toBe('done');
    expect(second.calls.map((c) => [c.cached, c.costUsd])).toEqual([
      [true, 0],
      [true, 0],
    ]);
    expect(server.log).toHaveLength(0);
    // The replayed answer still has the agent act: its shell ran in the new workspace.
    expect(await readFile(join(ws, 'when.txt'), 'utf8')).toMatch(/\d{4}/);
  }, 90_000);
});

describe('limits of a Claude Code agent', () => {
  it('ends with max_turns at --max-turns', async () => {
    let n = 0;
    server.configure({
      respond: () => ({ toolCalls: [{ id: `toolu_${n++}`, name: 'Bash', arguments: { command: 'true' } }] }),
    });
    const { result } = await run('claude', await workspace(), { maxTurns: 2 });
    expect(result.endReason).toBe('max_turns');
    expect(toolCalls(result.transcript).length).toBeGreaterThan(0);
  }, 60_000);

  it('is killed at its timeout with everything it started', async () => {
    // Claude Code refuses a bare `sleep`; a script of the workspace's is a command like any other.
    server.configure({ respond: script([{ tool: 'Bash', args: { command: 'sh wait.sh' } }, 'Slept.']) });
    const ws = await workspace();
    await writeFile(join(ws, 'wait.sh'), 'sleep 47.25\n');
    const { result } = await run('claude', ws, { timeoutMs: 8_000 });
    expect(result.endReason).toBe('timeout');
    expect(result.error).toMatch(/after 8 s/);
    expect(toolCalls(result.transcript)).toHaveLength(1);
    expect(processesMentioning('sleep 47.25')).toEqual([]);
  }, 60_000);

  it('rejects with the reason when the run stops, and leaves nothing running', async () => {
    server.configure({ respond: script([{ tool: 'Bash', args: { command: 'sh wait.sh' } }, 'Slept.']) });
    const ws = await workspace();
    await writeFile(join(ws, 'wait.sh'), 'sleep 48.75\n');
    const stop = new AbortController();
    const timer = setInterval(() => {
      if (processesMentioning('sleep 48.75').length > 0) stop.abort(new Error('the run is stopping'));
    }, 100);
    try {
      await expect(run('claude', ws, {}, { signal: stop.signal })).rejects.toThrow('the run is stopping');
    } finally {
      clearInterval(timer);
    }
    expect(processesMentioning('sleep 48.75')).toEqual([]);
  }, 60_000);
});

describe('under process isolation', () => {
  it('works in the host folder without a real key, and its requests still repeat across workspaces', async () => {
    server.configure({
      respond: script([
        {
          tool: 'exec_command',
          args: {
            cmd: 'pwd; pwd > where.txt; echo "key=$OPENAI_API_KEY via=$OPENAI_BASE_URL proxy=$HTTPS_PROXY"',
          },
        },
        'Done.',
      ]),
    });
    const cacheDir = join(root, 'process-cache');
    const process1 = await workspace();
    const first = await run('codex', process1, {}, { cacheDir, isolation: 'process' });
    expect(first.result.endReason).toBe('done');
    expect(await readFile(join(process1, 'where.txt'), 'utf8')).toBe(`${process1}\n`);
    const output = toolResults(first.result.transcript)[0]?.content ?? '';
    expect(output).not.toContain(KEY);
    expect(output).toMatch(
      /key=arp-[0-9a-f]{48} via=http:\/\/127\.0\.0\.1:\d+\/v1 proxy=http:\/\/127\.0\.0\.1:9$/m,
    );
    server.reset();
    const second = await run('codex', await workspace(), {}, { cacheDir, isolation: 'process' });
    expect(second.calls.map((c) => c.cached)).toEqual([true, true]);
    expect(server.log).toHaveLength(0);
  }, 60_000);
});
