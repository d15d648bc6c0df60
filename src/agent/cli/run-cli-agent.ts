/**
 * The runner for real agent CLIs (RunAgent for `claude` and `codex`, docs/design/agent-runs.md):
 * the CLI runs through runInSandbox with the case's workspace at AGENT_WORKSPACE, its only
 * network the agent proxy (agent-proxy.ts) that holds the real key, its tools on and its own
 * permission prompts and sandbox off; its stream becomes the transcript, and the process, the
 * proxy and the stream together say why it ended (end-reason.ts). Under `process` isolation the
 * CLI runs in the host folder as a child process, its other traffic sent to a proxy address that
 * answers nothing: as far as a process can be kept in.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monotonicMs } from '../../providers/clock.js';
import { redactSecrets, secretValues } from '../../providers/redact.js';
import { runInSandbox } from '../../sandbox/run-in-sandbox.js';
import type { SandboxedProgramOutcome } from '../../sandbox/run-sandboxed-program.js';
import type { ProxyAccess } from '../../sandbox/sandbox-env.js';
import {
  AGENT_WORKSPACE,
  type AgentRunContext,
  type AgentRunRequest,
  type AgentRunResult,
  type RunAgent,
} from '../agent-run.js';
import { agentHostPaths } from './agent-cache-key.js';
import { agentCredentialProblem, agentUpstream } from './agent-credential.js';
import { type AgentProxy, startAgentProxy } from './agent-proxy.js';
import { buildClaudeAgentArgs, claudeAgentEnv } from './claude-agent-argv.js';
import { parseClaudeStream } from './claude-stream.js';
import { cliInstallFolders } from './cli-install.js';
import { buildCodexAgentArgs, codexAgentEnv } from './codex-agent-argv.js';
import { parseCodexStream } from './codex-events.js';
import { decideEndReason } from './end-reason.js';
import { NO_USAGE, type ParsedStream } from './transcript-entry.js';

/** Where the raw stream is kept in the case's record folder. */
export const STREAM_LOG = 'agent-stream.jsonl';

/** An address nothing listens on: under `process` isolation, the CLI's traffic to any other host goes nowhere. */
const NOWHERE = 'http://127.0.0.1:9';

type CliAgent = 'claude' | 'codex';

function cliArgs(agent: CliAgent, request: AgentRunRequest, proxy: ProxyAccess): string[] {
  return agent === 'claude'
    ? buildClaudeAgentArgs(request)
    : buildCodexAgentArgs(request, proxy.openaiBaseUrl);
}

function cliEnv(agent: CliAgent, proxy: ProxyAccess, context: AgentRunContext): Record<string, string> {
  const own = agent === 'claude' ? claudeAgentEnv() : codexAgentEnv(proxy.token);
  if (context.isolation === 'os') return own;
  return {
    ...own,
    HTTPS_PROXY: NOWHERE,
    HTTP_PROXY: NOWHERE,
    ALL_PROXY: NOWHERE,
    NO_PROXY: '127.0.0.1,localhost',
  };
}

/** Secrets scrubbed, control characters but newline and tab shown as escapes. */
function cleanText(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets).replace(
    /[\u0000-\u0008\u000b-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function failed(error: string, durationMs: number): AgentRunResult {
  return {
    endReason: 'error',
    finalMessage: '',
    transcript: [],
    turns: 0,
    durationMs,
    usage: { ...NO_USAGE },
    error,
  };
}

function resultOf(
  agent: CliAgent,
  request: AgentRunRequest,
  outcome: SandboxedProgramOutcome,
  proxy: AgentProxy | undefined,
  durationMs: number,
  secrets: readonly string[],
): AgentRunResult {
  const parsed: ParsedStream =
    agent === 'claude' ? parseClaudeStream(outcome.process.stdout) : parseCodexStream(outcome.process.stdout);
  const { endReason, error } = decideEndReason({
    process: outcome.process,
    timeoutMs: request.limits.timeoutMs,
    limitReached: proxy?.limitReached ?? false,
    ...(outcome.overLimit === undefined ? {} : { overLimit: outcome.overLimit }),
    parsed,
  });
  return {
    endReason,
    finalMessage: parsed.finalMessage,
    transcript: parsed.transcript,
    // The proxy counts Codex's model calls; Claude Code counts its own turns.
    turns: parsed.turns ?? Math.min(proxy?.served ?? 0, request.limits.maxTurns),
    durationMs,
    usage: parsed.usage,
    ...(parsed.reportedCostUsd === undefined ? {} : { reportedCostUsd: parsed.reportedCostUsd }),
    ...(error === undefined ? {} : { error: cleanText(error, secrets) }),
  };
}

export const runCliAgent: RunAgent = async (request, context) => {
  const started = monotonicMs();
  const { agent } = request;
  if (agent === 'sim') return failed('the simulated agent is not a CLI', 0);
  const upstream = agentUpstream(agent, context.env);
  if (upstream === undefined) return failed(agentCredentialProblem(context.env, agent) ?? 'no login', 0);
  const binary = request.binary ?? (agent === 'claude' ? 'claude' : 'codex');
  let proxy: AgentProxy | undefined;
  const result = await runInSandbox({
    program: { entry: { command: [binary] }, builtinArgs: [] },
    who: 'agent',
    attempts: 1,
    files: [],
    workspace: request.workspace,
    timeoutMs: request.limits.timeoutMs,
    env: context.env,
    isolation: context.isolation,
    ...(context.limits === undefined ? {} : { limits: context.limits }),
    ...(context.tmpRoot === undefined ? {} : { tmpRoot: context.tmpRoot }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    agent: {
      workspacePath: AGENT_WORKSPACE,
      readOnly: cliInstallFolders(binary, context.env['PATH']),
      env: (access) => cliEnv(agent, access, context),
      argv: (access) => [binary, ...cliArgs(agent, request, access)],
      async startProxy(listen, sandbox) {
        proxy = await startAgentProxy({
          upstream,
          listen,
          ...(context.cacheDir === undefined
            ? {}
            : {
                cache: {
                  dir: context.cacheDir,
                  key: {
                    hostPaths: agentHostPaths(request.workspace, sandbox),
                    sampleIndex: context.sampleIndex,
                  },
                },
              }),
          // Claude Code keeps its own turn limit (--max-turns); Codex has none.
          ...(agent === 'codex' ? { maxCalls: request.limits.maxTurns } : {}),
          ...(context.onModelCall === undefined ? {} : { onModelCall: context.onModelCall }),
          ...(context.holdSpend === undefined ? {} : { holdSpend: context.holdSpend }),
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
        return proxy;
      },
    },
    readOutcome: (outcome) => outcome,
  });
  const durationMs = monotonicMs() - started;
  if (!result.ok) {
    if (context.signal?.aborted) throw context.signal.reason;
    return failed(result.message, durationMs);
  }
  const secrets = [...secretValues(context.env), ...(proxy === undefined ? [] : [proxy.token])];
  await mkdir(context.recordDir, { recursive: true });
  await writeFile(join(context.recordDir, STREAM_LOG), cleanText(result.value.process.stdout, secrets));
  return resultOf(agent, request, result.value, proxy, durationMs, secrets);
};
