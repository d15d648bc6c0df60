/**
 * `javascript`: user code over `output`, `vars`, `context.vars` and `context.tool_calls` (docs/design/prompt-shapes.md). An inline expression (or
 * function body) runs in an isolated V8 context; `file://path.js` runs in a child process.
 * Default timeout 10 s (`timeout_s`).
 */
import type { CheckDefinition } from '../check-definition.js';
import { shorten } from '../check-values.js';
import { compileProblem, runExpression } from '../javascript/run-expression.js';
import { parseFileReference, runFile } from '../javascript/run-file.js';

export const JAVASCRIPT_TIMEOUT_S = 10;

export const javascriptCheck: CheckDefinition = {
  validate(entry) {
    if (typeof entry.value !== 'string' || entry.value.trim() === '') {
      return [
        {
          keyPath: 'value',
          message: 'javascript needs an expression or a file://path.js in value',
          hint: 'e.g. value: "output.split(\'\\n\').length <= 5"',
        },
      ];
    }
    if (entry.value.startsWith('file://')) {
      const { file } = parseFileReference(entry.value);
      return file.trim() === '' ? [{ keyPath: 'value', message: 'file:// needs a path to a .js file' }] : [];
    }
    const problem = compileProblem(entry.value);
    return problem === undefined
      ? []
      : [{ keyPath: 'value', message: `the javascript does not compile: ${problem}` }];
  },
  describe(entry) {
    return shorten(String(entry.value ?? ''));
  },
  run(output, entry, context) {
    const code = String(entry.value ?? '');
    const timeoutMs = (entry.timeout_s ?? JAVASCRIPT_TIMEOUT_S) * 1000;
    if (code.startsWith('file://')) {
      return runFile({
        reference: code,
        output,
        vars: context.vars,
        toolCalls: context.toolCalls,
        threshold: entry.threshold,
        baseDir: context.baseDir,
        env: context.env,
        timeoutMs,
        signal: context.signal,
      });
    }
    return runExpression({
      code,
      output,
      vars: context.vars,
      toolCalls: context.toolCalls,
      threshold: entry.threshold,
      timeoutMs,
    });
  },
};
