/**
 * Runs a user's regular expression against an output with a time limit. V8's regex engine
 * backtracks, so some patterns take exponential time on some texts (`^(a+)+$` against forty
 * a's and a "!"): run directly, such a match would freeze the runner's only thread for hours,
 * Ctrl-C included (its handler is JavaScript, waiting for the thread). Run inside a V8 context
 * with a timeout, the match is interrupted when the time is up and the check fails with the
 * reason. A context is made once per process and reused; each call costs about 0.1 ms, for
 * the thread that watches the clock.
 */
import { types } from 'node:util';
import vm from 'node:vm';

export type BoundedTest =
  | { kind: 'done'; matched: boolean }
  | { kind: 'timeout' }
  | { kind: 'failed'; message: string };

interface Runner {
  context: vm.Context;
  script: vm.Script;
}

let runner: Runner | undefined;

function getRunner(): Runner {
  runner ??= {
    context: vm.createContext(Object.create(null) as object, { name: 'regex check' }),
    script: new vm.Script('globalThis.__regex.test(globalThis.__text)', { filename: 'regex-check.js' }),
  };
  return runner;
}

/** `pattern.test(text)`, stopped after `timeoutMs`. The pattern's state (lastIndex) is the caller's. */
export function testWithin(pattern: RegExp, text: string, timeoutMs: number): BoundedTest {
  const { context, script } = getRunner();
  const globals = context as Record<string, unknown>;
  globals['__regex'] = pattern;
  globals['__text'] = text;
  try {
    const matched: unknown = script.runInContext(context, { timeout: timeoutMs });
    return { kind: 'done', matched: matched === true };
  } catch (error) {
    if (!types.isNativeError(error)) return { kind: 'failed', message: String(error) };
    if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { kind: 'timeout' };
    // e.g. a RangeError from a pattern too large for the engine's stack.
    return { kind: 'failed', message: error.message };
  } finally {
    // Neither the output nor the pattern stays reachable from the context between calls.
    delete globals['__regex'];
    delete globals['__text'];
  }
}
