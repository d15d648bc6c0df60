/**
 * Applies a case's checks (global then the case's own) to one generated output: its text as
 * `output`, its tool calls in the context (docs/design/prompt-shapes.md); for an agent case, the
 * agent's tool calls, and a check with `file:` reads that file of its workspace instead. A failed generation
 * scores 0 on every check (docs/design/checks.md: it never shrinks the denominator); a check that
 * cannot run fails with the reason instead of throwing. Only an abort throws.
 */
import type { CheckEntry } from '../experiment/schema.js';
import type { ToolCall } from '../providers/types.js';
import type { AgentEvidence } from './agent/agent-evidence.js';
import { judgeWorkspaceFiles } from './agent/file-scope.js';
import type { CheckContext } from './check-definition.js';
import { type CheckOutcome, type CheckResult, errored, passed } from './check-result.js';
import { isExemptWithToolCalls } from './output-schema-gate.js';
import { checkName, findCheck, validateCheckEntry } from './registry.js';

export interface RunChecksInput {
  /** The generated text (without its tool calls), or null when generation failed. */
  output: string | null;
  /** The calls the output made (docs/design/prompt-shapes.md); absent or empty: none. */
  toolCalls?: readonly ToolCall[];
  /** Why generation failed, for the reason of every check. */
  generationError?: string;
  vars: Record<string, string>;
  /** Global checks, then the case's own. */
  checks: CheckEntry[];
  /** The experiment folder. */
  baseDir: string;
  /** The environment for javascript files and commands (default: this process's). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** An agent case's run (src/checks/agent/agent-evidence.ts): its tool calls replace `toolCalls`. */
  agent?: AgentEvidence;
}

/** `not-` inverts pass and score; a check that could not judge stays failed. */
export function negate(result: CheckResult): CheckResult {
  if (result.error) return result;
  return {
    pass: !result.pass,
    score: 1 - result.score,
    reason: result.pass ? `expected the opposite, but ${result.reason}` : result.reason,
  };
}

// An experiment's check entries do not change during a run, and every output meets the same
// ones: validate each entry (compiling its regex or javascript) and name it once, not per output.
const entryProblems = new WeakMap<CheckEntry, string | null>();
const entryNames = new WeakMap<CheckEntry, string>();

function problemOf(entry: CheckEntry, agent: boolean): string | null {
  let problem = entryProblems.get(entry);
  if (problem === undefined) {
    const issues = validateCheckEntry(entry, { agent });
    problem =
      issues.length === 0
        ? null
        : `invalid check: ${issues.map((issue) => `${issue.keyPath}: ${issue.message}`).join('; ')}`;
    entryProblems.set(entry, problem);
  }
  return problem;
}

function nameOf(entry: CheckEntry): string {
  let name = entryNames.get(entry);
  if (name === undefined) {
    name = checkName(entry);
    entryNames.set(entry, name);
  }
  return name;
}

async function judgeOne(output: string, entry: CheckEntry, context: CheckContext): Promise<CheckResult> {
  const found = findCheck(entry.type);
  if (found === undefined) return errored(`unknown check type "${entry.type}"`);
  const problem = problemOf(entry, context.agent !== undefined);
  if (problem !== null) return errored(problem);
  const judge = async (text: string) => {
    const result = await found.definition.run(text, entry, context);
    return found.negated ? negate(result) : result;
  };
  if (entry.file === undefined) return judge(output);
  if (context.agent === undefined) return errored('`file:` reads an agent case’s workspace');
  return judgeWorkspaceFiles(entry.file, context.agent.workspace, judge);
}

async function resultOf(
  input: RunChecksInput,
  entry: CheckEntry,
  context: CheckContext,
): Promise<CheckResult> {
  if (input.output === null) return errored(`generation failed: ${input.generationError ?? 'no output'}`);
  if (context.toolCalls.length > 0 && isExemptWithToolCalls(entry)) {
    return passed('the output called tools: the output schema applies only to outputs without tool calls');
  }
  return judgeOne(input.output, entry, context);
}

export async function runChecks(input: RunChecksInput): Promise<CheckOutcome[]> {
  const context: CheckContext = {
    vars: input.vars,
    toolCalls: (input.agent?.toolCalls ?? input.toolCalls ?? []).map(({ name, arguments: args }) => ({
      name,
      arguments: args,
    })),
    baseDir: input.baseDir,
    env: input.env ?? process.env,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.agent ? { agent: input.agent } : {}),
  };
  const outcomes: CheckOutcome[] = [];
  // One at a time: commands are processes, and the caller already runs outputs in parallel.
  for (const entry of input.checks) {
    input.signal?.throwIfAborted();
    const result = await resultOf(input, entry, context);
    input.signal?.throwIfAborted();
    outcomes.push({
      name: nameOf(entry),
      type: entry.type,
      weight: entry.weight ?? 1,
      gate: entry.gate ?? false,
      ...result,
    });
  }
  return outcomes;
}
