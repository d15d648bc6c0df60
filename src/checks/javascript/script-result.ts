/**
 * What a user's javascript check (or command's JSON) returned, reduced to plain data inside
 * the isolated realm or child process, then read here as promptfoo reads it: a boolean, a
 * number (the score; passes above 0, or at/above `threshold` when set) or `{pass, score, reason}`.
 */
import * as z from 'zod';
import { type CheckResult, errored } from '../check-result.js';

/**
 * Source of `__describe(result)`, evaluated where the user's code runs: any getter on the
 * returned object executes there, under the timeout, never in the runner.
 */
export const DESCRIBE_SOURCE = `function __describe(r) {
  if (typeof r === 'boolean') return { kind: 'boolean', value: r };
  if (typeof r === 'number') return { kind: 'number', value: String(r) };
  if (typeof r === 'object' && r !== null) {
    const pass = r.pass, score = r.score, reason = r.reason;
    return {
      kind: 'object',
      pass: typeof pass === 'boolean' ? pass : undefined,
      score: score === undefined ? undefined : String(score),
      reason: typeof reason === 'string' ? reason : undefined,
    };
  }
  return { kind: 'other', type: r === null ? 'null' : typeof r };
}`;

export const ScriptDescription = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('boolean'), value: z.boolean() }),
  z.object({ kind: z.literal('number'), value: z.string() }),
  z.object({
    kind: z.literal('object'),
    pass: z.boolean().optional(),
    score: z.string().optional(),
    reason: z.string().optional(),
  }),
  z.object({ kind: z.literal('other'), type: z.string() }),
  z.object({ kind: z.literal('threw'), message: z.string() }),
]);
export type ScriptDescription = z.infer<typeof ScriptDescription>;

/** The description sent back as JSON text, or undefined when it is not one. */
export function parseDescription(text: unknown): ScriptDescription | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = ScriptDescription.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

const clamp = (n: number): number => Math.min(1, Math.max(0, n));

export function readScriptResult(description: ScriptDescription, threshold: number | undefined): CheckResult {
  switch (description.kind) {
    case 'boolean':
      return {
        pass: description.value,
        score: description.value ? 1 : 0,
        reason: `returned ${description.value}`,
      };
    case 'number': {
      const n = Number(description.value);
      if (!Number.isFinite(n)) return errored(`returned ${description.value}, not a finite number`);
      const pass = threshold === undefined ? n > 0 : n >= threshold;
      const rule = threshold === undefined ? 'passes above 0' : `threshold ${threshold}`;
      return { pass, score: clamp(n), reason: `returned score ${n} (${rule})` };
    }
    case 'object':
      return readObjectResult(description, threshold);
    case 'other':
      return errored(`returned ${description.type}; return a boolean, a number or {pass, score, reason}`);
    case 'threw':
      return errored(`threw: ${description.message}`);
  }
}

export function readObjectResult(
  result: { pass?: boolean | undefined; score?: string | number | undefined; reason?: string | undefined },
  threshold: number | undefined,
): CheckResult {
  if (result.pass === undefined) return errored('returned an object without a boolean `pass`');
  let score = result.pass ? 1 : 0;
  if (result.score !== undefined) {
    const n = Number(result.score);
    if (!Number.isFinite(n)) return errored(`returned score ${String(result.score)}, not a finite number`);
    score = n;
  }
  const reason =
    result.reason !== undefined && result.reason.trim() !== ''
      ? result.reason
      : `returned pass=${result.pass}`;
  if (threshold !== undefined && score < threshold) {
    return {
      pass: false,
      score: clamp(score),
      reason: `score ${score} is below the threshold ${threshold}: ${reason}`,
    };
  }
  return { pass: result.pass, score: clamp(score), reason };
}

/** The last few non-empty lines of a program's stderr, for a failure reason. */
export function lastLines(text: string, lines = 5, maxChars = 600): string {
  const tail = text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(-lines)
    .join('\n');
  return tail.length <= maxChars ? tail : `…${tail.slice(-maxChars)}`;
}
