/**
 * A case's inputs as the judge and grader get them under `judging.inputs: true`
 * (docs/design/judge-protocol.md): `inputs/input_NN.txt`, paired by number with
 * `outputs/output_NN.txt`, so a rubric can ask whether the answer fits the question. Only what the
 * case itself holds goes in — its vars and its conversation so far (`Case.messages`, placeholders
 * already filled when the case was loaded) — never a system prompt or a template part: the prompt
 * being optimised must not reach the judge. The plain-text format (docs/judge-and-grader.md
 * "Inputs"):
 *
 *   # Variables                       # Conversation
 *
 *   audience: Dana, finance lead      User:
 *   notes:                            Where is order 7?
 *     a value of several lines,
 *     each indented two spaces        Assistant:
 *                                     Tool call call_1: lookup {"id":7}
 *                                     …
 *
 * the variables in the case's own order, the turns as the CLI providers render a conversation
 * (src/providers/process/render-prompt.ts), `(none)` for an empty section. A protocol: the judge
 * and the grader are both given it, and a user's program reads it.
 */
import type { Case } from '../experiment/types.js';
import { renderTurn } from '../providers/process/render-prompt.js';

function renderVar(name: string, value: string): string {
  if (!value.includes('\n')) return value === '' ? `${name}:` : `${name}: ${value}`;
  return `${name}:\n${value
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')}`;
}

export function renderCaseInputs(testCase: Pick<Case, 'vars' | 'messages'>): string {
  const vars = Object.entries(testCase.vars).map(([name, value]) => renderVar(name, value));
  const turns = (testCase.messages ?? []).map(renderTurn);
  return [
    '# Variables',
    '',
    vars.length === 0 ? '(none)' : vars.join('\n'),
    '',
    '# Conversation',
    '',
    turns.length === 0 ? '(none)' : turns.join('\n\n'),
    '',
  ].join('\n');
}

/**
 * Each case's inputs file by case id when the experiment gives the judge and grader inputs
 * (`judging.inputs: true`); undefined otherwise, and then nothing about the cases is sent.
 */
export function caseInputsFor(
  judging: { inputs?: boolean | undefined } | undefined,
  cases: readonly Pick<Case, 'id' | 'vars' | 'messages'>[],
): ReadonlyMap<string, string> | undefined {
  if (judging?.inputs !== true) return undefined;
  return new Map(cases.map((c) => [c.id, renderCaseInputs(c)]));
}
