/**
 * Replies from the built simulated model (deterministic for the same request), as a `respond`
 * handler for the fake LLM server, so judges and mutators get answers they can parse.
 */
import { distModule } from './paths.mjs';

export async function createSimResponder() {
  const { simulateCompletion } = await import(distModule('providers/sim/simulate.js'));
  return (request) => {
    const result = simulateCompletion({
      ...(request.system === undefined ? {} : { system: request.system }),
      messages: request.messages.filter((m) => m.role === 'user' || m.role === 'assistant'),
      model: request.model,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    });
    return {
      text: result.text,
      usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
    };
  };
}
