/**
 * Each case's conversation (docs/design/prompt-shapes.md): the template's messages, then the case's
 * own. It must end with a user or tool turn (the model answers it), every tool turn must answer a
 * call an earlier assistant turn of the case made, and every call must be answered before the next
 * turn. Call ids are unique within a case, as the APIs require.
 */
import type { Problem } from '../errors.js';
import type { DraftCase } from './cases/load-cases.js';
import { formatKeyPath } from './key-path.js';
import type { Where } from './referenced-file.js';
import type { PromptPart } from './types.js';

export function validateConversations(
  parts: readonly PromptPart[],
  casesFile: string,
  cases: readonly DraftCase[],
  where: Where,
): Problem[] {
  const problems: Problem[] = [];
  const template = parts.filter((p) => p.role !== 'system');
  const lastTemplate = template.at(-1);
  // Cases with no turns of their own all end where the template ends: one problem for them all.
  const bare = cases.filter((c) => (c.messages ?? []).length === 0);
  if (bare.length > 0 && lastTemplate?.role !== 'user') {
    const key = lastTemplate ? ['prompt', 'messages', template.length - 1, 'role'] : ['prompt'];
    const count = bare.length === cases.length ? 'the cases' : `${bare.length} case(s) without messages`;
    problems.push({
      severity: 'error',
      location: { file: where.file, ...where.locate(key) },
      keyPath: formatKeyPath(key),
      message: lastTemplate
        ? `for ${count} the conversation ends with the template's assistant message: the request must end with a user (or tool) turn`
        : `for ${count} there is nothing to answer: the prompt has no messages and the case none either`,
      hint: 'end the template with a user message, or give each case `messages:` ending with a user turn',
    });
  }
  for (const c of cases) {
    const messages = c.messages ?? [];
    const calls = new Set<string>();
    // Calls of the latest assistant turn no tool turn has answered yet: APIs refuse to go on without them.
    let pending: { at: number; ids: Set<string> } | undefined;
    const unanswered = (j: number, before: string) => {
      if (!pending || pending.ids.size === 0) return;
      problems.push({
        severity: 'error',
        location: { file: casesFile, ...c.locate(['messages', j]) },
        keyPath: `[${c.index}].messages[${j}]`,
        message: `case \`${c.id}\`: call${pending.ids.size === 1 ? '' : 's'} ${[...pending.ids].map((id) => `\`${id}\``).join(', ')} of message ${pending.at} ha${pending.ids.size === 1 ? 's' : 've'} no tool turn answering ${pending.ids.size === 1 ? 'it' : 'them'}${before}`,
        hint: 'follow an assistant turn with tool_calls by one `{role: tool, tool_call_id, content}` turn per call',
      });
      pending = undefined;
    };
    for (const [j, message] of messages.entries()) {
      if (message.role !== 'tool') unanswered(j, ' before this turn');
      if (message.role === 'assistant' && message.toolCalls) {
        for (const [k, call] of message.toolCalls.entries()) {
          if (calls.has(call.id)) problems.push(duplicateCall(c, casesFile, [j, k], call.id));
          calls.add(call.id);
        }
        pending = { at: j, ids: new Set(message.toolCalls.map((call) => call.id)) };
      }
      if (message.role !== 'tool') continue;
      pending?.ids.delete(message.toolCallId);
      if (calls.has(message.toolCallId)) continue;
      problems.push({
        severity: 'error',
        location: { file: casesFile, ...c.locate(['messages', j, 'tool_call_id']) },
        keyPath: `[${c.index}].messages[${j}].tool_call_id`,
        message: `tool turn answers \`${message.toolCallId}\`, which no earlier assistant turn of case \`${c.id}\` called`,
        hint: 'a tool turn follows an assistant turn whose `tool_calls` has an entry with this `id`',
      });
    }
    if (messages.at(-1)?.role === 'tool') unanswered(messages.length - 1, '');
    const last = messages.at(-1);
    if (last && last.role === 'assistant') {
      problems.push({
        severity: 'error',
        location: { file: casesFile, ...c.locate(['messages', messages.length - 1]) },
        keyPath: `[${c.index}].messages[${messages.length - 1}]`,
        message: `case \`${c.id}\` ends with an assistant turn: the request must end with a user (or tool) turn`,
        hint: 'add the user turn the model should answer, or drop the last assistant turn',
      });
    }
  }
  return problems;
}

function duplicateCall(c: DraftCase, casesFile: string, [j, k]: [number, number], id: string): Problem {
  const key = ['messages', j, 'tool_calls', k, 'id'];
  return {
    severity: 'error',
    location: { file: casesFile, ...c.locate(key) },
    keyPath: formatKeyPath([c.index, ...key]),
    message: `case \`${c.id}\` calls \`${id}\` twice: a call id may appear once in a conversation`,
    hint: 'the APIs refuse a conversation with two calls of one id; give each call its own `id` (and its tool turn the same one)',
  };
}
