/**
 * One agent case and sample, from start to record (docs/design/agent-runs.md "One case"): a fresh
 * workspace, the agent run through the seam, the capture, and the record folder. What comes back is
 * the case's generation: its output text is the final message and the files, as the checks and the
 * judge read it. The workspace is removed whatever happened; only the run stopping throws.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Case } from '../experiment/types.js';
import { renderTemplate } from '../experiment/template.js';
import { fileHeading } from '../protocol/agent-output.js';
import { type OutputFolder, outputFolderOf } from '../protocol/output-folder.js';
import { writeReviewJson, writeTextAtomic } from '../run/records.js';
import type { AgentKind, AgentModelCall, AgentRunContext, AgentRunResult, RunAgent } from './agent-run.js';
import { recordedCalls } from './agent-calls.js';
import { AGENT_RECORD_FILES, AgentCaseRecord, type WorkspaceCheckRecord } from './agent-record.js';
import { type AgentToolCall, AgentToolCallsFile, toolCallsOf } from './agent-tool-calls.js';
import type { AgentTarget } from './agent-target.js';
import { type Capture, type CapturedFile, captureWorkspace } from './capture.js';
import { sha256Json } from '../sha256.js';
import { transcriptMarkdown } from './transcript-markdown.js';
import { prepareWorkspace } from './workspace.js';

export interface AgentCaseJob {
  agent: AgentKind;
  binary?: string;
  model?: string;
  target: AgentTarget;
  /** The optimised file's text as the loop holds it. */
  prompt: string;
  testCase: Case;
  sample: number;
  sampleIndex: number;
  /** `agent/<case-id>.<sample>/` of the candidate's record. */
  recordDir: string;
  /** Where workspaces are made (the process's temporary folder). */
  tmpRoot: string;
  /** Checks to run in the workspace once the agent is done, before it is removed. */
  workspaceChecks?: WorkspaceChecks;
}

/**
 * Checks that need the finished workspace itself (`command` with `in: workspace`,
 * src/checks/agent/workspace-commands.ts): run after the capture, their results kept in the record.
 */
export interface WorkspaceChecks {
  /** One key per check; a recorded case that lacks one of them is run again. */
  keys: readonly string[];
  run(workspace: string, toolCalls: readonly AgentToolCall[]): Promise<WorkspaceCheckRecord[]>;
}

export interface AgentCaseDeps {
  run: RunAgent;
  env: NodeJS.ProcessEnv;
  isolation: 'os' | 'process';
  limits?: AgentRunContext['limits'];
  cacheDir?: string;
  signal?: AbortSignal;
  onModelCall?: (call: AgentModelCall) => void;
  holdSpend?: AgentRunContext['holdSpend'];
}

export interface AgentCaseOutcome {
  record: AgentCaseRecord;
  /** What the checks read: the final message and the files under their headings. */
  text: string;
  /** What the judge and the grader see of it (docs/design/judge-protocol.md "Agent outputs"). */
  folder: OutputFolder;
  /** The record's `transcript.md`, which the grader reads (docs/design/grader-protocol.md). */
  transcript: string;
  /** The record's `tool-calls.json`: what the checks read of the agent's actions. */
  toolCalls: AgentToolCall[];
  /** The case was finished before a resume and not run again. */
  reused?: true;
}

export async function runAgentCase(job: AgentCaseJob, deps: AgentCaseDeps): Promise<AgentCaseOutcome> {
  const vars = job.testCase.vars;
  const key = caseKey(job);
  const earlier = await readFinishedCase(job.recordDir, key, job.workspaceChecks?.keys ?? []);
  if (earlier !== undefined) return earlier;
  const workspace = await prepareWorkspace({
    parent: job.tmpRoot,
    agent: job.agent,
    target: job.target,
    artifact: renderTemplate(job.prompt, vars),
    ...(job.testCase.fixtures === undefined ? {} : { caseFixtures: job.testCase.fixtures }),
  });
  try {
    const result = await deps.run(
      {
        agent: job.agent,
        ...(job.binary === undefined ? {} : { binary: job.binary }),
        workspace: workspace.dir,
        task: renderTemplate(job.target.task, vars),
        ...(workspace.appendSystemPrompt === undefined
          ? {}
          : { appendSystemPrompt: workspace.appendSystemPrompt }),
        ...(job.model === undefined ? {} : { model: job.model }),
        limits: job.target.limits,
      },
      {
        recordDir: job.recordDir,
        ...(deps.cacheDir === undefined ? {} : { cacheDir: deps.cacheDir }),
        sampleIndex: job.sampleIndex,
        ...(deps.onModelCall === undefined ? {} : { onModelCall: deps.onModelCall }),
        ...(deps.holdSpend === undefined ? {} : { holdSpend: deps.holdSpend }),
        env: deps.env,
        isolation: deps.isolation,
        ...(deps.limits === undefined ? {} : { limits: deps.limits }),
        tmpRoot: job.tmpRoot,
        ...(deps.signal === undefined ? {} : { signal: deps.signal }),
      },
    );
    const capture = await captureWorkspace(workspace.dir, workspace.start);
    const toolCalls = toolCallsOf(result.transcript);
    const workspaceChecks = await job.workspaceChecks?.run(workspace.dir, toolCalls);
    const record = {
      ...caseRecord(job, key, result, capture),
      ...(workspaceChecks === undefined ? {} : { workspaceChecks }),
    };
    const transcript = await writeCaseRecord(job, result, capture, record, toolCalls);
    return {
      record,
      text: outputText(result.finalMessage, capture),
      folder: outputFolderOf(result.finalMessage, capture.files, capture.truncated),
      transcript,
      toolCalls,
    };
  } finally {
    await rm(workspace.dir, { recursive: true, force: true });
  }
}

/** Everything the case's run depends on that the loop can change between two evaluations. */
function caseKey(job: AgentCaseJob): string {
  const { target, testCase } = job;
  return sha256Json({
    agent: job.agent,
    model: job.model ?? null,
    artifact: renderTemplate(job.prompt, testCase.vars),
    task: renderTemplate(target.task, testCase.vars),
    place: target.place,
    name: target.name ?? null,
    limits: target.limits,
    fixtures: [target.fixtures ?? null, testCase.fixtures ?? null],
    sampleIndex: job.sampleIndex,
  });
}

/**
 * A case this evaluation already finished before the run was stopped: its record is written last,
 * so one that reads with the same key is whole. Its output text and folder are rebuilt from the
 * record, its transcript and tool calls read from it; a record without a result for each of
 * `checkKeys` is run again (its workspace is gone).
 */
async function readFinishedCase(
  dir: string,
  key: string,
  checkKeys: readonly string[],
): Promise<AgentCaseOutcome | undefined> {
  const parsed = await readFile(join(dir, AGENT_RECORD_FILES.record), 'utf8')
    .then((text) => AgentCaseRecord.safeParse(JSON.parse(text)))
    .catch(() => undefined);
  if (!parsed?.success || parsed.data.key !== key) return undefined;
  const record = parsed.data;
  const checked = new Set((record.workspaceChecks ?? []).map((check) => check.key));
  if (checkKeys.some((checkKey) => !checked.has(checkKey))) return undefined;
  const calls = await readFile(join(dir, AGENT_RECORD_FILES.toolCalls), 'utf8')
    .then((text) => AgentToolCallsFile.safeParse(JSON.parse(text)))
    .catch(() => undefined);
  if (!calls?.success) return undefined;
  const files: CapturedFile[] = [];
  for (const file of record.files) {
    const kept = file.kind === 'file' && file.status !== 'deleted' && file.skipped === undefined;
    const text = kept
      ? await readFile(join(dir, AGENT_RECORD_FILES.files, file.path), 'utf8').catch(() => undefined)
      : undefined;
    if (kept && text === undefined) return undefined;
    files.push({ ...file, ...(text === undefined ? {} : { text }) });
  }
  const transcript = await readFile(join(dir, AGENT_RECORD_FILES.transcript), 'utf8').catch(() => undefined);
  if (transcript === undefined) return undefined;
  return {
    record,
    text: outputText(record.finalMessage, { files, truncated: record.truncated }),
    folder: outputFolderOf(record.finalMessage, files, record.truncated),
    transcript,
    toolCalls: calls.data.calls,
    reused: true,
  };
}

function caseRecord(
  job: AgentCaseJob,
  key: string,
  result: AgentRunResult,
  capture: Capture,
): AgentCaseRecord {
  const tools: Record<string, number> = {};
  for (const entry of result.transcript)
    if (entry.kind === 'tool_call') tools[entry.tool] = (tools[entry.tool] ?? 0) + 1;
  const { calls, omitted } = recordedCalls(result.transcript);
  return {
    version: 1,
    agent: job.agent,
    caseId: job.testCase.id,
    sample: job.sample,
    key,
    endReason: result.endReason,
    turns: result.turns,
    durationMs: result.durationMs,
    usage: result.usage,
    reportedCostUsd: result.reportedCostUsd ?? null,
    ...(result.error === undefined ? {} : { error: result.error }),
    finalMessage: result.finalMessage,
    tools,
    calls,
    ...(omitted === 0 ? {} : { callsOmitted: omitted }),
    files: capture.files.map(({ text: _text, ...file }) => file),
    truncated: capture.truncated,
  };
}

async function writeCaseRecord(
  job: AgentCaseJob,
  result: AgentRunResult,
  capture: Capture,
  record: AgentCaseRecord,
  toolCalls: readonly AgentToolCall[],
): Promise<string> {
  const dir = job.recordDir;
  await mkdir(dir, { recursive: true });
  const title = `${job.testCase.id}, sample ${job.sample}: ${record.endReason} after ${record.turns} turn(s)`;
  const transcript = transcriptMarkdown(title, result.transcript);
  const calls: AgentToolCallsFile = { calls: [...toolCalls] };
  const writes: Promise<void>[] = [
    writeTextAtomic(join(dir, AGENT_RECORD_FILES.transcript), transcript, { durable: false }),
    writeTextAtomic(join(dir, AGENT_RECORD_FILES.toolCalls), `${JSON.stringify(calls)}\n`, {
      durable: false,
    }),
  ];
  for (const file of capture.files) {
    if (file.text === undefined) continue;
    const target = join(dir, AGENT_RECORD_FILES.files, file.path);
    writes.push(
      mkdir(dirname(target), { recursive: true }).then(() =>
        writeTextAtomic(target, file.text ?? '', { durable: false }),
      ),
    );
  }
  await Promise.all(writes);
  // Last: a record on disk means the case's files are too (readFinishedCase relies on it).
  await writeReviewJson(join(dir, AGENT_RECORD_FILES.record), record);
  return transcript;
}

/** The final message, then each created or changed file under its heading, then each deleted one. */
export function outputText(finalMessage: string, capture: Capture): string {
  const parts = [finalMessage.trim()];
  for (const file of capture.files) {
    if (file.status === 'deleted') continue;
    const body =
      file.text ??
      (file.kind === 'link'
        ? `[a link to ${file.target ?? '?'}]`
        : `[not shown: ${file.skipped ?? file.kind}]`);
    parts.push(`${fileHeading(file.path)}\n${body.trimEnd()}`);
  }
  for (const file of capture.files) if (file.status === 'deleted') parts.push(fileHeading(file.path, true));
  return `${parts.filter((p) => p !== '').join('\n\n')}\n`;
}
