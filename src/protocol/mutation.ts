/**
 * The mutator's request and reply. Besides the prose (built in src/loop/), every mutator
 * request carries the same feedback as one fenced ```json block whose `format` field is
 * MUTATOR_FEEDBACK_FORMAT, so simple mutators (the `sim` model, a user's `command`) can act
 * on it without reading prose. Holdout cases never appear here.
 */
import * as z from 'zod';

export const MUTATOR_FEEDBACK_FORMAT = 'autoresearch.mutator-feedback/v1';

const Role = z.enum(['system', 'user', 'assistant']);

/**
 * Several optimisable parts (docs/design/prompt-shapes.md): each with its own rules, in request
 * order.
 */
const OptimisedPart = z.object({
  name: z.string(),
  role: Role,
  text: z.string(),
  chars: z.number().int(),
  /** This part's own placeholders: every one must stay in this part. */
  placeholders: z.array(z.string()),
  keep_blocks: z.array(z.string()),
  /** The new text of this part may be at most this long (max_growth × its current length). */
  max_chars: z.number().int(),
});

/** Several optimisable parts: the part a failure most likely comes from, or `unknown`. */
const Attribution = z.object({ part: z.string() }).partial();

const Signals = z.object({
  total: z.number(),
  checks: z.number().optional(),
  judge: z.number().optional(),
  expectations: z.number().optional(),
});

export const MutatorFeedback = z.object({
  format: z.literal(MUTATOR_FEEDBACK_FORMAT),
  /** `bold` after `bold_after` discards in a row: restructure rather than patch. Kept for readers of v1; `mode` holds the same. */
  strategy: z.enum(['focused', 'bold']),
  /** The mutation mode (docs/design/pareto-search.md names it so; "strategy" now names the search strategy): the same value as `strategy`. */
  mode: z.enum(['focused', 'bold']).optional(),
  /**
   * Pareto search (docs/design/pareto-search.md): `incumbent` is this pool member, revised as a parent; its
   * ancestors, nearest first.
   */
  parent: z.object({ member: z.string(), ancestors: z.array(z.string()) }).optional(),
  incumbent: z.object({
    /**
     * Prompt parts (docs/design/prompt-shapes.md): the name of the part `prompt` is; absent for a
     * path prompt.
     */
    part: z.string().optional(),
    /** The one optimised part's text; with several parts, their parts document (`<!-- part: name -->` lines). */
    prompt: z.string(),
    chars: z.number().int(),
    /** Every one must survive the mutation. */
    placeholders: z.array(z.string()),
    /** Must survive verbatim, markers included. */
    keep_blocks: z.array(z.string()),
    score: Signals,
    /** Judge criterion averages on the 1–5 scale. */
    criteria: z.record(z.string(), z.number()),
    /** Several optimisable parts: each one the reply may change through `edits`. */
    parts: z.array(OptimisedPart).optional(),
  }),
  /**
   * Prompt parts (docs/design/prompt-shapes.md): the parts sent around it, read-only, in request
   * order.
   */
  fixed_parts: z.array(z.object({ name: z.string(), role: Role, text: z.string() })).optional(),
  /** The new prompt may be at most this long (max_growth × incumbent). */
  max_chars: z.number().int(),
  /**
   * Traces (pareto): outputs, check reasons, judge reasoning and grader evidence are whole, cut
   * only past this many characters, where a line `[… cut here: N more characters not shown]` follows.
   */
  trace_chars: z.number().int().optional(),
  /** Train cases that fail most, worst first (pareto: those of the iteration's minibatch). */
  failing_cases: z.array(
    z.object({
      case_id: z.string(),
      vars: z.record(z.string(), z.string()),
      score: z.number(),
      /** The output of the case's worst sample: an excerpt, or with `trace_chars` the whole output. */
      output_excerpt: z.string(),
      /** With `trace_chars`: the whole output's length, cut or not. */
      output_chars: z.number().int().optional(),
      failed_checks: z.array(
        z.object({ name: z.string(), type: z.string(), reason: z.string() }).extend(Attribution.shape),
      ),
      judge: z.object({ criteria: z.record(z.string(), z.number()), reasoning: z.string() }).nullable(),
      failed_expectations: z.array(z.object({ text: z.string(), evidence: z.string() })),
      /**
       * Agent experiments (docs/agents.md "What the mutator sees"): what the agent did in this
       * train case's worst sample, from its agent.json — how it ended, after how many turns, and a
       * digest of its tool calls, errors, files and what failed. `digest` is at most 1,500
       * characters, the request's digests 6,000 together; `cut` says what was left out.
       */
      agent: z
        .object({
          sample: z.number().int().min(0),
          end_reason: z.enum(['done', 'max_turns', 'timeout', 'error']),
          turns: z.number().int().min(0),
          digest: z.string(),
          cut: z.string().optional(),
        })
        .optional(),
    }),
  ),
  /** How often each check failed over the train outputs, most failures first. */
  check_failures: z.array(
    z
      .object({ name: z.string(), type: z.string(), failed: z.number(), total: z.number() })
      .extend(Attribution.shape),
  ),
  /**
   * Recent attempts, best first. Pareto: the attempts made from the parent and its ancestors,
   * best gain over their own parent first, each with the member(s) it was made from (`parents`),
   * the member it became (`member`, null when not pooled) and that gain (`delta`).
   */
  history: z.array(
    z.object({
      iteration: z.number().int(),
      status: z.string(),
      score: z.number().nullable(),
      hypothesis: z.string(),
      candidate: z.number().int().optional(),
      parents: z.array(z.string()).optional(),
      member: z.string().nullable().optional(),
      delta: z.number().nullable().optional(),
    }),
  ),
  /**
   * Hypotheses already tried elsewhere in this run and not in `history` (another lineage's, or
   * older than the history shown), newest first, each once: so a proposal does not repeat what the
   * run has already tried. At most TRIED_HYPOTHESES, each cut at TRIED_CHARS (src/loop/build-feedback.ts);
   * absent when there are none.
   */
  tried: z.array(z.string()).optional(),
  guidance: z.string(),
});
export type MutatorFeedback = z.infer<typeof MutatorFeedback>;

/** The whole new text of the one optimisable part. */
export const MutatorReply = z.object({
  hypothesis: z.string().trim().min(1),
  prompt: z.string().min(1),
});
export type MutatorReply = z.infer<typeof MutatorReply>;

/**
 * Part name → its whole new text, for one or more parts (docs/design/prompt-shapes.md); the form
 * for several parts.
 */
export const MutatorEditsReply = z.object({
  hypothesis: z.string().trim().min(1),
  edits: z.record(z.string(), z.string().min(1)),
});
export type MutatorEditsReply = z.infer<typeof MutatorEditsReply>;

/** The feedback block as it appears in the request. */
/** The section of the mutator's request listing the feedback's `tried` (none when it is empty). */
export function triedSection(tried: readonly string[] | undefined): string[] {
  if (tried === undefined || tried.length === 0) return [];
  return [
    '## Also tried elsewhere in this run (newest first; do not propose these again)',
    ...tried.map((hypothesis) => `- ${JSON.stringify(hypothesis)}`),
    '',
  ];
}

export function formatFeedbackBlock(feedback: MutatorFeedback): string {
  return `\`\`\`json\n${JSON.stringify(feedback, null, 2)}\n\`\`\``;
}

/** Find and validate the feedback block in a mutator request (for the `sim` model and tests). */
export function extractFeedbackBlock(message: string): MutatorFeedback | undefined {
  for (const match of message.matchAll(/```json\n([\s\S]*?)\n```/g)) {
    try {
      const parsed = MutatorFeedback.safeParse(JSON.parse(match[1] as string));
      if (parsed.success) return parsed.data;
    } catch {
      // another fenced block (e.g. an example); keep looking
    }
  }
  return undefined;
}
