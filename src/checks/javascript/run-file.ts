/**
 * Runs a `file://` javascript check in a child Node process with a timeout, so the user's
 * module (and anything it imports) never shares the runner's memory. The module exports a
 * function `(output, context) => boolean | number | {pass, score, reason}` (promptfoo's
 * signature; `context.vars` holds the case vars, `context.tool_calls` the output's tool calls);
 * `file://check.js:name` picks a named export.
 * The result travels on file descriptor 3, so the function may log freely.
 */
import path from 'node:path';
import type { CheckedToolCall } from '../check-definition.js';
import { type CheckResult, errored } from '../check-result.js';
import { runProcess } from '../../process/run-process.js';
import { DESCRIBE_SOURCE, lastLines, parseDescription, readScriptResult } from './script-result.js';

const RUNNER_SOURCE = `import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
${DESCRIBE_SOURCE}
const send = (description) => { fs.writeSync(3, JSON.stringify(description)); process.exit(0); };
const fail = (e) => send({ kind: 'threw', message: String(e instanceof Error ? e.message : e) });
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
try {
  const mod = await import(pathToFileURL(input.file).href);
  const fn = input.exportName
    ? (mod[input.exportName] ?? mod.default?.[input.exportName])
    : (typeof mod.default === 'function' ? mod.default : mod.default?.default);
  if (typeof fn !== 'function') {
    fail(input.exportName ? 'the module has no function export "' + input.exportName + '"' : 'the module does not export a function');
  } else {
    send(__describe(await fn(input.output, { vars: input.vars, tool_calls: input.tool_calls })));
  }
} catch (e) {
  fail(e);
}`;

/** `file://dir/check.js` or `file://dir/check.js:name` → the path and optional export name. */
export function parseFileReference(value: string): { file: string; exportName?: string } {
  const rest = value.slice('file://'.length);
  const named = /^(.+\.[cm]?js):([A-Za-z_$][\w$]*)$/.exec(rest);
  return named ? { file: named[1]!, exportName: named[2]! } : { file: rest };
}

export interface FileCheckInput {
  reference: string;
  output: string;
  vars: Record<string, string>;
  toolCalls: readonly CheckedToolCall[];
  threshold?: number | undefined;
  baseDir: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export async function runFile(input: FileCheckInput): Promise<CheckResult> {
  const { file, exportName } = parseFileReference(input.reference);
  const absolute = path.resolve(input.baseDir, file);
  const result = await runProcess({
    file: process.execPath,
    args: ['--input-type=module', '-e', RUNNER_SOURCE],
    cwd: input.baseDir,
    env: input.env,
    input: JSON.stringify({
      file: absolute,
      exportName,
      output: input.output,
      vars: input.vars,
      tool_calls: input.toolCalls,
    }),
    resultPipe: true,
    timeoutMs: input.timeoutMs,
    signal: input.signal,
  });
  if (result.timedOut) return errored(`${file} timed out after ${input.timeoutMs / 1000}s`);
  if (result.aborted) return errored(`${file} was cancelled`);
  const description = parseDescription(result.resultPipe);
  if (description !== undefined) return readScriptResult(description, input.threshold);
  const stderr = lastLines(result.stderr);
  const status =
    result.exitCode !== null
      ? `exited with code ${result.exitCode}`
      : (result.startError?.message ?? `was killed by ${result.signal ?? 'a signal'}`);
  return errored(`${file} ${status} without a result${stderr ? `: ${stderr}` : ''}`);
}
