/**
 * `tool-call` (docs/design/prompt-shapes.md): the output called the tool named in `value` (or, when
 * `value` is absent, in `name`), and — when `arguments` is given — with those arguments: every key
 * given must be in the call with an equal value (objects compare the same way, key by key; lists
 * and scalars exactly). With several calls, one matching call passes.
 */
import { isDeepStrictEqual } from 'node:util';
import { canonicalJson } from '../../canonical-json.js';
import type { CheckDefinition, CheckIssue, CheckedToolCall } from '../check-definition.js';
import { failed, passed } from '../check-result.js';
import { isPlainObject, quote, shorten } from '../check-values.js';
import type { CheckEntry } from '../../experiment/schema.js';

function toolName(entry: CheckEntry): string | undefined {
  if (entry.value === undefined) return entry.name;
  return typeof entry.value === 'string' && entry.value !== '' ? entry.value : undefined;
}

/** Every key of `expected` is in `actual` with an equal value; nested objects likewise. */
function includes(actual: unknown, expected: unknown): boolean {
  if (!isPlainObject(expected)) return isDeepStrictEqual(actual, expected);
  if (!isPlainObject(actual)) return false;
  return Object.entries(expected).every(
    ([key, value]) => Object.hasOwn(actual, key) && includes(actual[key], value),
  );
}

function describeCall(call: CheckedToolCall): string {
  return `${call.name} ${shorten(canonicalJson(call.arguments), 80)}`;
}

export const toolCallCheck: CheckDefinition = {
  validate(entry) {
    const issues: CheckIssue[] = [];
    if (toolName(entry) === undefined) {
      issues.push({
        keyPath: 'value',
        message: 'tool-call needs the name of the tool in value',
        hint: 'e.g. { type: tool-call, value: get_weather, arguments: { city: Paris } }',
      });
    }
    if (entry.arguments !== undefined && !isPlainObject(entry.arguments)) {
      issues.push({
        keyPath: 'arguments',
        message: 'arguments must be a mapping of the argument values the call must have',
        hint: 'e.g. arguments: { city: Paris } — the call may have more arguments than these',
      });
    }
    return issues;
  },
  describe(entry) {
    const name = toolName(entry) ?? '';
    return entry.arguments === undefined ? name : shorten(`${name} ${canonicalJson(entry.arguments)}`);
  },
  run(_output, entry, context) {
    const name = toolName(entry) ?? '';
    const calls = context.toolCalls;
    if (calls.length === 0) return failed(`the output called no tool (expected ${quote(name)})`);
    const named = calls.filter((call) => call.name === name);
    if (named.length === 0) {
      return failed(`no call to ${quote(name)}; called ${calls.map((call) => quote(call.name)).join(', ')}`);
    }
    if (entry.arguments === undefined) return passed(`called ${quote(name)}`);
    const matching = named.find((call) => includes(call.arguments, entry.arguments));
    if (matching !== undefined) return passed(`called ${describeCall(matching)}`);
    return failed(
      `called ${quote(name)}, but not with ${shorten(canonicalJson(entry.arguments), 80)}: ${named.map(describeCall).join('; ')}`,
    );
  },
};
