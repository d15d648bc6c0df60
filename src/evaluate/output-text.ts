/**
 * An output as a file (docs/design/prompt-shapes.md): the model's text and, when it called tools,
 * one JSON line of the calls after a blank line — `{"tool_calls":[{"name":…,"arguments":{…}}]}`,
 * arguments with their keys sorted so equal calls read the same. What outputs/<case>.<sample>.txt
 * holds and what the judge, the grader, the grader's evidence check and the mutator see; the checks
 * see the text and the calls apart.
 */
import { canonicalJson } from '../canonical-json.js';
import type { ToolCall } from '../providers/types.js';

export interface OutputParts {
  text: string;
  toolCalls?: readonly Pick<ToolCall, 'name' | 'arguments'>[] | undefined;
}

export function outputText(output: OutputParts): string {
  const calls = output.toolCalls ?? [];
  if (calls.length === 0) return output.text;
  // The call's id is the provider's bookkeeping, not what the model chose: left out.
  const shown = calls.map(
    (call) => `{"name":${JSON.stringify(call.name)},"arguments":${canonicalJson(call.arguments)}}`,
  );
  const line = `{"tool_calls":[${shown.join(',')}]}`;
  // A reply that only calls tools is the line alone, not two blank lines before it.
  return output.text === '' ? line : `${output.text}\n\n${line}`;
}
