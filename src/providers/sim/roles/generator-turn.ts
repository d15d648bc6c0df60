/**
 * The simulated generator's turn for a prompt shape (docs/design/prompt-shapes.md): a conversation,
 * structured output, tools. It calls a tool when one fits the newest user message (its name's or
 * description's words appear there) and no tool result has come back since; after a tool
 * result it answers in text that first passes the result on; with a schema it
 * answers a JSON object of the schema's shape. Instructions come from the system prompt and
 * every user message; the value rules among them (how to write dates, currencies, amounts…)
 * shape the JSON values and tool arguments read from the newest user message's document.
 * A request of one user message with no output or tools never gets here.
 */
import { isRecord } from '../../../is-record.js';
import type { StructuredOutput, ToolCall, ToolDefinition } from '../../types.js';
import { obeyProbability, parseInstructions } from '../instructions.js';
import type { Rng } from '../prng.js';
import { VALUE_FAMILIES, type ValueFamily } from '../value-rules.js';
import { contentWords, stem, stemsOf } from '../text.js';
import { type FieldReader, readDocument } from './document-fields.js';
import { generateOutput } from './generator.js';
import { valueFromSchema } from './generator-schema.js';
import { extractDetails } from './prompt-details.js';

export interface TurnMessage {
  role: string;
  content: string;
}

export interface TurnRequest {
  system: string;
  messages: readonly TurnMessage[];
  output?: StructuredOutput;
  tools?: readonly ToolDefinition[];
}

export interface Turn {
  text: string;
  toolCalls?: ToolCall[];
}

/** Words of a tool name: `lookup_order`, `lookupOrder` and `lookup-order` all give lookup, order. */
function nameWords(name: string): string[] {
  return contentWords(name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' '));
}

/** The tool whose name (twice as telling) and description best match the message; none without a match. */
export function fittingTool(tools: readonly ToolDefinition[], message: string): ToolDefinition | undefined {
  const said = stemsOf(message);
  const hits = (words: string[]): number => words.filter((word) => said.has(stem(word))).length;
  let best: { tool: ToolDefinition; score: number } | undefined;
  for (const tool of tools) {
    const byName = hits(nameWords(tool.name));
    const byDescription = hits(contentWords(tool.description ?? ''));
    const score = byName * 2 + byDescription;
    const fits = byName >= 1 || byDescription >= 2;
    if (fits && (best === undefined || score > best.score)) best = { tool, score };
  }
  return best?.tool;
}

function callId(rng: Rng): string {
  return `call_${rng.int(0, 0xffffff).toString(16).padStart(6, '0')}`;
}

/** The value rules stated anywhere in the request, each kept or not by its own seeded draw. */
function obeyedValueRules(request: TurnRequest, rng: Rng): Set<ValueFamily> {
  const texts = [request.system, ...request.messages.filter((m) => m.role === 'user').map((m) => m.content)];
  const { values } = parseInstructions(texts.join('\n\n'));
  return new Set(
    VALUE_FAMILIES.filter((family) => {
      const rule = values[family];
      return rule !== undefined && rng.fork(`rule:${family}`).chance(obeyProbability(rule));
    }),
  );
}

function documentReader(request: TurnRequest, toolResults: readonly string[], rng: Rng): FieldReader {
  const newestUser = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
  return readDocument({ text: newestUser, toolResults, obeyed: obeyedValueRules(request, rng) });
}

export function generateTurn(request: TurnRequest, rng: Rng): Turn {
  const userTexts = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
  const prompt = userTexts.join('\n\n');
  const last = request.messages[request.messages.length - 1];
  if (request.tools !== undefined && last?.role === 'user') {
    const tool = fittingTool(request.tools, last.content);
    if (tool !== undefined) {
      const args = valueFromSchema(
        tool.parameters,
        extractDetails(prompt),
        rng.fork('arguments'),
        documentReader(request, [], rng.fork('rules')),
      );
      const call = {
        id: callId(rng.fork('call-id')),
        name: tool.name,
        arguments: isRecord(args) ? args : {},
      };
      return { text: '', toolCalls: [call] };
    }
  }
  // Tool results since the newest user message are part of what the answer is about.
  const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
  const results = request.messages.slice(lastUser + 1).filter((m) => m.role === 'tool');
  const about = [prompt, ...results.map((m) => m.content)].join('\n\n');
  if (request.output !== undefined) {
    const reader = documentReader(
      request,
      results.map((m) => m.content),
      rng.fork('rules'),
    );
    const value = valueFromSchema(request.output.schema, extractDetails(about), rng.fork('output'), reader);
    return { text: JSON.stringify(value, null, 2) };
  }
  const prose = generateOutput(about, rng, request.system);
  return { text: results.length === 0 ? prose : `${relay(results)}\n\n${prose}` };
}

/** The answer's first line passes on what the tools said, on one line and at most 200 characters. */
function relay(results: readonly TurnMessage[]): string {
  const said = results.map((m) => m.content.replace(/\s+/g, ' ').trim()).join('; ');
  return `Here is what I found: ${said.length > 200 ? `${said.slice(0, 199)}…` : said}`;
}
