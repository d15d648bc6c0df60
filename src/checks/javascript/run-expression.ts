/**
 * Runs an inline javascript check (`output`, `vars`, `context` = `{vars, tool_calls}`) in a fresh V8 context: no `require`, no `process`, no
 * timers, nothing of the runner reachable (inputs enter as one JSON string and are parsed
 * inside, so no runner object or prototype leaks in). Synchronous code and promise chains
 * that settle through microtasks are bounded by the timeout.
 */
import { types } from 'node:util';
import vm from 'node:vm';
import type { CheckedToolCall } from '../check-definition.js';
import { type CheckResult, errored } from '../check-result.js';
import { DESCRIBE_SOURCE, parseDescription, readScriptResult } from './script-result.js';

const PARAMS = 'output, vars, context';

function compiles(body: string): boolean {
  try {
    new vm.Script(`(function (${PARAMS}) {\n${body}\n})`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The function body for the user's code: an expression is returned; statements ending in an
 * expression (`const n = output.length; n < 100`) return that last expression; anything else
 * (a body with its own `return`) is used as written.
 */
export function buildFunctionBody(code: string): string {
  const trimmed = code.trim().replace(/;+\s*$/, '');
  const asExpression = `return (\n${trimmed}\n);`;
  if (compiles(asExpression)) return asExpression;
  for (let i = trimmed.lastIndexOf(';'); i !== -1; i = trimmed.lastIndexOf(';', i - 1)) {
    const last = trimmed.slice(i + 1).trim();
    if (last === '' || /^return\b/.test(last)) break;
    const candidate = `${trimmed.slice(0, i + 1)}\nreturn (\n${last}\n);`;
    if (compiles(candidate)) return candidate;
    if (i === 0) break;
  }
  return trimmed;
}

/** The reason a body does not compile, or undefined when it does. */
export function compileProblem(code: string): string | undefined {
  try {
    new vm.Script(`(function (${PARAMS}) {\n${buildFunctionBody(code)}\n})`);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// Reads only plain data properties: an error thrown from the user's realm could carry getters.
function dataProperty(error: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(error, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

function describeThrown(error: unknown): { timeout: boolean; message: string } {
  if (!types.isNativeError(error)) return { timeout: false, message: 'threw a value that is not an Error' };
  const message = dataProperty(error, 'message');
  return {
    timeout: dataProperty(error, 'code') === 'ERR_SCRIPT_EXECUTION_TIMEOUT',
    message: typeof message === 'string' ? message : 'unknown error',
  };
}

export interface ExpressionInput {
  code: string;
  output: string;
  vars: Record<string, string>;
  toolCalls: readonly CheckedToolCall[];
  threshold?: number | undefined;
  timeoutMs: number;
}

export function runExpression(input: ExpressionInput): CheckResult {
  const body = buildFunctionBody(input.code);
  const sandbox = Object.create(null) as Record<string, unknown>;
  sandbox['__input'] = JSON.stringify({
    output: input.output,
    vars: input.vars,
    tool_calls: input.toolCalls,
  });
  const context = vm.createContext(sandbox, {
    name: 'javascript check',
    codeGeneration: { strings: true, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  const source = `'use strict';
${DESCRIBE_SOURCE}
(() => {
  const input = JSON.parse(globalThis.__input);
  delete globalThis.__input;
  const fail = (e) => ({ kind: 'threw', message: String(e instanceof Error ? e.message : e) });
  const check = function (${PARAMS}) {
${body}
  };
  let result;
  try {
    result = check(input.output, input.vars, { vars: input.vars, tool_calls: input.tool_calls });
  } catch (e) {
    globalThis.__settled = fail(e);
    return;
  }
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    result.then((value) => { globalThis.__settled = __describe(value); }, (e) => { globalThis.__settled = fail(e); });
  } else {
    globalThis.__settled = __describe(result);
  }
})();`;
  let settled: unknown;
  try {
    vm.runInContext(source, context, { timeout: input.timeoutMs, filename: 'javascript-check.js' });
    settled = vm.runInContext('JSON.stringify(globalThis.__settled ?? null)', context, {
      timeout: input.timeoutMs,
    });
  } catch (error) {
    const { timeout, message } = describeThrown(error);
    if (timeout) return errored(`timed out after ${input.timeoutMs / 1000}s`);
    return errored(`does not run: ${message}`);
  }
  if (settled === 'null')
    return errored('returned a promise that never settled (timers and IO are not available here)');
  const description = parseDescription(settled);
  if (description === undefined) return errored('returned a result that could not be read');
  return readScriptResult(description, input.threshold);
}
