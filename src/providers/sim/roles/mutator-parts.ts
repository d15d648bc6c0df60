/**
 * The simulated mutator on a prompt with several optimisable parts (docs/design/prompt-shapes.md):
 * each proposal changes one part — the part the most common failing check is attributed to when the
 * feedback knows it, else a seeded pick — with the usual single-prompt change made to that
 * part's text under that part's own rules (placeholders, keep blocks, length limit), and
 * replies with `edits` naming it.
 */
import type { MutatorEditsReply, MutatorFeedback } from '../../../protocol/mutation.js';
import type { Rng } from '../prng.js';
import { proposeMutation } from './mutator.js';

type Part = NonNullable<MutatorFeedback['incumbent']['parts']>[number];

export function proposePartsMutation(feedback: MutatorFeedback, rng: Rng): MutatorEditsReply {
  const parts = feedback.incumbent.parts ?? [];
  const blamed = feedback.check_failures.map((c) => c.part).find((p) => parts.some((q) => q.name === p));
  const order = [
    ...parts.filter((p) => p.name === blamed),
    ...rng.fork('order').shuffle(parts.filter((p) => p.name !== blamed)),
  ];
  for (const part of order) {
    const reply = proposeMutation(viewOf(feedback, part), rng.fork(part.name));
    if (reply.prompt !== part.text)
      return {
        hypothesis: `${reply.hypothesis} (part \`${part.name}\`)`,
        edits: { [part.name]: reply.prompt },
      };
  }
  // Nothing valid fits any part's budget: the incumbent itself, which the loop records as a duplicate.
  const first = parts[0] as Part;
  return {
    hypothesis:
      'No further change fits the length budgets; keeping the prompt as it is will leave the score unchanged.',
    edits: { [first.name]: first.text },
  };
}

/** The feedback as if `part` were the whole prompt, so the single-prompt mutator edits it alone. */
function viewOf(feedback: MutatorFeedback, part: Part): MutatorFeedback {
  const { parts: _parts, ...incumbent } = feedback.incumbent;
  return {
    ...feedback,
    incumbent: {
      ...incumbent,
      part: part.name,
      prompt: part.text,
      chars: part.chars,
      placeholders: part.placeholders,
      keep_blocks: part.keep_blocks,
    },
    max_chars: part.max_chars,
  };
}
