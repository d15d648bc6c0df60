/**
 * The simulated model as a pure function: it recognises its role from the request (the
 * judge's, grader's and mutator's fixed request formats, the mutator's merge request among
 * them; anything else is a generation) and answers deterministically for (model, system,
 * messages, temperature, sampleIndex, and the output schema and tools when a request has them).
 */
import { parseGraderUserMessage } from '../../protocol/grading.js';
import { parseJudgeUserMessage } from '../../protocol/judge-call.js';
import { extractMergeBlock } from '../../protocol/merge-request.js';
import { extractFeedbackBlock } from '../../protocol/mutation.js';
import type { ChatMessage, StructuredOutput, ToolCall, ToolDefinition, Usage } from '../types.js';
import { createRng, type Rng, seedFrom } from './prng.js';
import { generateOutput } from './roles/generator.js';
import { generateTurn } from './roles/generator-turn.js';
import { gradeCase } from './roles/grader.js';
import { judgeOutput } from './roles/judge.js';
import { resolveMergeConflicts } from './roles/merger.js';
import { proposeMutation } from './roles/mutator.js';
import { proposePartsMutation } from './roles/mutator-parts.js';
import { withoutTried } from './seed-request.js';

export const DEFAULT_SIM_MODEL = 'sim-1';

export type SimRole = 'generator' | 'judge' | 'grader' | 'mutator';

export interface SimRequest {
  system?: string;
  /** Roles are loose so a fake server's normalised request can be passed as is. */
  messages: readonly {
    role: ChatMessage['role'] | (string & {});
    content: string;
    toolCalls?: readonly ToolCall[];
    toolCallId?: string;
  }[];
  model?: string;
  temperature?: number;
  sampleIndex?: number;
  output?: StructuredOutput;
  tools?: readonly ToolDefinition[];
}

export interface SimCompletion {
  text: string;
  /** The generator's tool calls, when it made any. */
  toolCalls?: ToolCall[];
  usage: Usage;
  role: SimRole;
}

/** Share of mutator replies wrapped in a ```json fence, as real models often do. */
export const FENCED_REPLY_PROBABILITY = 0.3;

function tokens(chars: number): number {
  return Math.ceil(chars / 4);
}

type Answer = { role: SimRole; text: string; toolCalls?: ToolCall[] };

function answerProtocol(message: string, rng: Rng): Answer | undefined {
  const judge = parseJudgeUserMessage(message);
  if (judge) return { role: 'judge', text: JSON.stringify(judgeOutput(judge, rng.fork('judge'))) };
  const grader = parseGraderUserMessage(message);
  if (grader) return { role: 'grader', text: JSON.stringify(gradeCase(grader)) };
  const merge = extractMergeBlock(message);
  if (merge) return { role: 'mutator', text: JSON.stringify(resolveMergeConflicts(merge)) };
  const feedback = extractFeedbackBlock(message);
  if (!feedback) return undefined;
  const reply = feedback.incumbent.parts
    ? proposePartsMutation(feedback, rng.fork('mutator'))
    : proposeMutation(feedback, rng.fork('mutator'));
  const text = rng.fork('fence').chance(FENCED_REPLY_PROBABILITY)
    ? `\`\`\`json\n${JSON.stringify(reply, null, 2)}\n\`\`\``
    : JSON.stringify(reply);
  return { role: 'mutator', text };
}

/**
 * A judge, grader or mutator request may be followed by a correction ("that was not valid
 * JSON, try again"), so the newest user message in a known format decides the role.
 */
function answer(request: SimRequest, system: string, rng: Rng): Answer {
  const { messages, output, tools } = request;
  const userTexts = messages.filter((m) => m.role === 'user').map((m) => m.content);
  for (const message of [...userTexts].reverse()) {
    const known = answerProtocol(message, rng);
    if (known) return known;
  }
  const [only] = messages;
  if (messages.length === 1 && only?.role === 'user' && output === undefined && tools === undefined)
    return { role: 'generator', text: generateOutput(only.content, rng.fork('generator'), system) };
  const turn = generateTurn(
    {
      system,
      messages,
      ...(output === undefined ? {} : { output }),
      ...(tools === undefined ? {} : { tools }),
    },
    rng.fork('generator'),
  );
  return { role: 'generator', ...turn };
}

/** The output schema and tools join the seed only when present, so a plain request's seed is as before. */
function shapeSeed(request: SimRequest): unknown[] {
  if (request.output === undefined && request.tools === undefined) return [];
  return [request.output ?? null, request.tools ?? null];
}

export function simulateCompletion(request: SimRequest): SimCompletion {
  const model = request.model ?? DEFAULT_SIM_MODEL;
  const system = request.system ?? '';
  const seed = seedFrom(
    model,
    system,
    request.messages.map((m) => (m.role === 'user' ? { ...m, content: withoutTried(m.content) } : m)),
    request.temperature ?? null,
    request.sampleIndex ?? 0,
    ...shapeSeed(request),
  );
  const { role, text, toolCalls } = answer(request, system, createRng(seed));
  const shape = shapeSeed(request);
  const inputChars =
    system.length +
    request.messages.reduce((sum, m) => sum + m.content.length, 0) +
    (shape.length === 0 ? 0 : JSON.stringify(shape).length);
  const outputChars = text.length + (toolCalls === undefined ? 0 : JSON.stringify(toolCalls).length);
  return {
    text,
    ...(toolCalls === undefined ? {} : { toolCalls }),
    role,
    usage: { inputTokens: tokens(inputChars), outputTokens: tokens(outputChars) },
  };
}
