/**
 * What the generator is sent for one case (SPEC 12): the system part, the template messages
 * and then the case's own turns, every template filled with the case's vars, plus the
 * structured output and tools of the experiment. The optimised part's text is the candidate
 * being evaluated, not the file's. A path prompt renders exactly as before this section: one
 * user message, and the generator entry's `system` when it has one.
 */
import { renderTemplate } from './template.js';
import type { Case, PromptShape } from './types.js';
import type { ChatMessage, CompletionRequest } from '../providers/types.js';

export type RenderedRequest = Pick<CompletionRequest, 'system' | 'messages' | 'output' | 'tools' | 'shaped'>;

export interface RenderInput {
  shape: PromptShape;
  /** The optimised part's text under evaluation. */
  prompt: string;
  testCase: Case;
  /** `models.generator.system`: only beside a path prompt (validation refuses it elsewhere). */
  system?: string;
}

export function renderRequest(input: RenderInput): RenderedRequest {
  const { shape, testCase } = input;
  const fill = (part: PromptShape['parts'][number]) =>
    renderTemplate(part.optimise ? input.prompt : part.text, testCase.vars);
  let system = input.system;
  const messages: ChatMessage[] = [];
  for (const part of shape.parts) {
    if (part.role === 'system') system = fill(part);
    else messages.push({ role: part.role, content: fill(part) });
  }
  messages.push(...(testCase.messages ?? []));
  // Prompt parts or a case conversation: the `command` provider gets the JSON request (SPEC 12).
  const shaped = shape.parts.some((part) => part.name !== 'prompt') || (testCase.messages?.length ?? 0) > 0;
  return {
    ...(shaped ? { shaped: true } : {}),
    ...(system === undefined ? {} : { system }),
    messages,
    ...(shape.output ? { output: { name: shape.output.name, schema: shape.output.schema } } : {}),
    ...(shape.tools ? { tools: shape.tools.definitions } : {}),
  };
}
