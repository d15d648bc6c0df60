/**
 * Runs a piece of check work that matches user regexes against an output — a `regex` check, a
 * JSON schema with `pattern` — with a time limit. V8's regex engine backtracks, so some
 * patterns take exponential time on some texts (`^(a+)+$` against forty a's and a "!"): run
 * directly, such a match would freeze the runner's only thread for hours, Ctrl-C included
 * (its handler is JavaScript, waiting for the thread). Called from inside a V8 context with a
 * timeout, the work is interrupted when the time is up and the check fails with the reason.
 * The context is made once per process and reused; each call pays for starting the thread
 * that watches the clock (well under a millisecond).
 */
import { types } from 'node:util';
import vm from 'node:vm';

/** How long one bounded piece of work may take unless the check sets `timeout_s`. */
export const MATCH_TIMEOUT_S = 2;

export type Bounded<T> =
  | { kind: 'done'; value: T }
  | { kind: 'timeout' }
  | { kind: 'failed'; message: string };

interface Runner {
  context: vm.Context;
  script: vm.Script;
}

let runner: Runner | undefined;

function getRunner(): Runner {
  runner ??= {
    context: vm.createContext(Object.create(null) as object, { name: 'bounded check' }),
    script: new vm.Script('globalThis.__work()', { filename: 'bounded-check.js' }),
  };
  return runner;
}

/** `work()`, stopped after `timeoutMs`. Synchronous work only: what it starts asynchronously is not bounded. */
export function runWithin<T>(work: () => T, timeoutMs: number): Bounded<T> {
  const { context, script } = getRunner();
  const globals = context as Record<string, unknown>;
  globals['__work'] = work;
  try {
    return { kind: 'done', value: script.runInContext(context, { timeout: timeoutMs }) as T };
  } catch (error) {
    if (!types.isNativeError(error)) return { kind: 'failed', message: String(error) };
    if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { kind: 'timeout' };
    // e.g. a RangeError from a pattern too large for the engine's stack.
    return { kind: 'failed', message: error.message };
  } finally {
    // Nothing of the work (the output, the pattern) stays reachable from the context between calls.
    delete globals['__work'];
  }
}
