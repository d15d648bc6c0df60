/**
 * What the generator is sent for one case (docs/design/prompt-shapes.md): the system part, the
 * template messages and then the case's own turns, every template filled with the case's vars, plus
 * the structured output and tools of the experiment. The optimised parts' texts are the candidate
 * being evaluated (the loop's prompt, split by part-texts.ts), not the files'. A path prompt renders exactly as before this section: one
 * user message, and the generator entry's `system` when it has one. The stable prefix every
 * case shares (docs/design/cost-engine.md) is marked for the provider's prompt cache.
 */
import { optimisedNames, splitPromptText } from './part-texts.js';
import { renderTemplate, templateLead } from './template.js';
import type { Case, PromptShape } from './types.js';
import type { ChatMessage, CompletionRequest } from '../providers/types.js';

export type RenderedRequest = Pick<
  CompletionRequest,
  'system' | 'messages' | 'output' | 'tools' | 'shaped' | 'cacheable'
>;

export interface RenderInput {
  shape: PromptShape;
  /** The loop's prompt under evaluation: the optimised part's text, or the parts document. */
  prompt: string;
  testCase: Case;
  /** `models.generator.system`: only beside a path prompt (validation refuses it elsewhere). */
  system?: string;
}

export function renderRequest(input: RenderInput): RenderedRequest {
  const { shape, testCase } = input;
  const candidate = splitPromptText(input.prompt, optimisedNames(shape));
  const fill = (part: PromptShape['parts'][number]) =>
    renderTemplate(part.optimise ? (candidate[part.name] as string) : part.text, testCase.vars);
  let system = input.system;
  const messages: ChatMessage[] = [];
  // The first template message's text before its first variable: the same for every case.
  let lead = 0;
  for (const part of shape.parts) {
    if (part.role === 'system') system = fill(part);
    else {
      if (messages.length === 0)
        lead = templateLead(part.optimise ? (candidate[part.name] as string) : part.text);
      messages.push({ role: part.role, content: fill(part) });
    }
  }
  messages.push(...(testCase.messages ?? []));
  // Prompt parts or a case conversation: the `command` provider gets the JSON request
  // (docs/design/prompt-shapes.md).
  const shaped = shape.parts.some((part) => part.name !== 'prompt') || (testCase.messages?.length ?? 0) > 0;
  return {
    ...(shaped ? { shaped: true } : {}),
    ...(system === undefined ? {} : { system }),
    messages,
    // The system prompt and that lead repeat for every case and sample: the prompt cache's prefix
    // (docs/design/cost-engine.md).
    cacheable: { lead },
    ...(shape.output ? { output: { name: shape.output.name, schema: shape.output.schema } } : {}),
    ...(shape.tools ? { tools: shape.tools.definitions } : {}),
  };
}
