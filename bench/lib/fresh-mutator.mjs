/**
 * A scripted mutator for long runs, served by the fake LLM server: every proposal is a prompt
 * never tried before (the incumbent with one numbered length instruction swapped in), so a
 * 1,000-iteration run evaluates a candidate every iteration. The simulated mutator runs out
 * of new ideas after a few dozen iterations, and the rest of such a run would be duplicates
 * that skip evaluation. Other requests get the simulated model's reply.
 */
import { createSimResponder } from './sim-responder.mjs';
import { distModule } from './paths.mjs';

const LENGTH_LINE = /\nKeep it under \d+ words \(draft \d+\)\.$/;

export async function createFreshMutatorResponder() {
  const { extractFeedbackBlock } = await import(distModule('protocol/mutation.js'));
  const sim = await createSimResponder();
  let draft = 0;
  return (request) => {
    const user = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const feedback = extractFeedbackBlock(user);
    if (feedback === undefined) return sim(request);
    draft += 1;
    const words = 40 + ((draft * 37) % 120);
    const base = feedback.incumbent.prompt.trimEnd().replace(LENGTH_LINE, '');
    const reply = {
      hypothesis: `A limit of ${words} words will fit the checks better (draft ${draft}).`,
      prompt: `${base}\nKeep it under ${words} words (draft ${draft}).`,
    };
    return { text: JSON.stringify(reply) };
  };
}
