/**
 * The simulated model as a pure function: it recognises its role from the request (the
 * judge's, grader's and mutator's fixed request formats; anything else is a generation) and
 * answers deterministically for (model, system, messages, temperature, sampleIndex).
 */
import { parseGraderUserMessage } from '../../protocol/grading.js';
import { parseJudgeUserMessage } from '../../protocol/judge-call.js';
import { extractFeedbackBlock } from '../../protocol/mutation.js';
import type { ChatMessage, Usage } from '../types.js';
import { createRng, type Rng, seedFrom } from './prng.js';
import { generateOutput } from './roles/generator.js';
import { gradeCase } from './roles/grader.js';
import { judgeOutput } from './roles/judge.js';
import { proposeMutation } from './roles/mutator.js';

export const DEFAULT_SIM_MODEL = 'sim-1';

export type SimRole = 'generator' | 'judge' | 'grader' | 'mutator';

export interface SimRequest {
  system?: string;
  /** Roles are loose so a fake server's normalised request can be passed as is. */
  messages: readonly { role: ChatMessage['role'] | (string & {}); content: string }[];
  model?: string;
  temperature?: number;
  sampleIndex?: number;
}

export interface SimCompletion {
  text: string;
  usage: Usage;
  role: SimRole;
}

/** Share of mutator replies wrapped in a ```json fence, as real models often do. */
export const FENCED_REPLY_PROBABILITY = 0.3;

function tokens(chars: number): number {
  return Math.ceil(chars / 4);
}

type Answer = { role: SimRole; text: string };

function answerProtocol(message: string, rng: Rng): Answer | undefined {
  const judge = parseJudgeUserMessage(message);
  if (judge) return { role: 'judge', text: JSON.stringify(judgeOutput(judge, rng.fork('judge'))) };
  const grader = parseGraderUserMessage(message);
  if (grader) return { role: 'grader', text: JSON.stringify(gradeCase(grader)) };
  const feedback = extractFeedbackBlock(message);
  if (!feedback) return undefined;
  const reply = proposeMutation(feedback, rng.fork('mutator'));
  const text = rng.fork('fence').chance(FENCED_REPLY_PROBABILITY)
    ? `\`\`\`json\n${JSON.stringify(reply, null, 2)}\n\`\`\``
    : JSON.stringify(reply);
  return { role: 'mutator', text };
}

/**
 * A judge, grader or mutator request may be followed by a correction ("that was not valid
 * JSON, try again"), so the newest user message in a known format decides the role.
 */
function answer(messages: SimRequest['messages'], system: string, rng: Rng): Answer {
  const userTexts = messages.filter((m) => m.role === 'user').map((m) => m.content);
  for (const message of [...userTexts].reverse()) {
    const known = answerProtocol(message, rng);
    if (known) return known;
  }
  return {
    role: 'generator',
    text: generateOutput(userTexts[userTexts.length - 1] ?? '', rng.fork('generator'), system),
  };
}

export function simulateCompletion(request: SimRequest): SimCompletion {
  const model = request.model ?? DEFAULT_SIM_MODEL;
  const system = request.system ?? '';
  const seed = seedFrom(
    model,
    system,
    request.messages,
    request.temperature ?? null,
    request.sampleIndex ?? 0,
  );
  const { role, text } = answer(request.messages, system, createRng(seed));
  const inputChars = system.length + request.messages.reduce((sum, m) => sum + m.content.length, 0);
  return { text, role, usage: { inputTokens: tokens(inputChars), outputTokens: tokens(text.length) } };
}
