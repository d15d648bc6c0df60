/**
 * The mutator's merge request and reply (docs/design/pareto-search.md). When the three-way merge of
 * two pool members leaves conflicts (src/search/merge-parts.ts), the mutator is asked to resolve
 * them. Like the mutation request, the prose (src/search/merge-prompt.ts) carries the same content
 * as one fenced ```json block whose `format` is MERGE_REQUEST_FORMAT, so simple mutators (the `sim`
 * model, a user's `command`) can act on it without reading prose. It holds prompt text only: no
 * case, score or output.
 */
import * as z from 'zod';

export const MERGE_REQUEST_FORMAT = 'autoresearch.merge-request/v1';

const Side = z.object({
  /** The pool member, `p3`. */
  member: z.string(),
  /** What its own change was meant to do. */
  hypothesis: z.string(),
});

export const MergeRequest = z.object({
  format: z.literal(MERGE_REQUEST_FORMAT),
  /** The common ancestor both sides' edits are taken from. */
  ancestor: z.string(),
  ours: Side,
  theirs: Side,
  /** Each part holding a conflict: its merged text with a SLOT line where each conflict sits, and its rules. */
  parts: z.array(
    z.object({
      name: z.string(),
      merged: z.string(),
      /** Every one must stay in the part. */
      placeholders: z.array(z.string()),
      /** Must survive verbatim, markers included. */
      keep_blocks: z.array(z.string()),
      /** The resolved part may be at most this long. */
      max_chars: z.number().int(),
    }),
  ),
  /** Overlapping edits, numbered from 1 in document order: the ancestor's text and each side's. */
  conflicts: z.array(
    z.object({
      id: z.number().int().min(1),
      part: z.string(),
      ancestor: z.string(),
      ours: z.string(),
      theirs: z.string(),
    }),
  ),
});
export type MergeRequest = z.infer<typeof MergeRequest>;

/** Conflict number (as a string key) → the text that replaces the conflict's lines. */
export const MergeReply = z.object({
  hypothesis: z.string().trim().min(1),
  resolutions: z.record(z.string(), z.string()),
});
export type MergeReply = z.infer<typeof MergeReply>;

/** The line that marks a conflict's place in a part's merged text. */
export function conflictSlot(id: number): string {
  return `[[conflict ${id}]]`;
}

export function formatMergeBlock(request: MergeRequest): string {
  return `\`\`\`json\n${JSON.stringify(request, null, 2)}\n\`\`\``;
}

/** Find and validate the merge block in a request (for the `sim` model and tests). */
export function extractMergeBlock(message: string): MergeRequest | undefined {
  for (const match of message.matchAll(/```json\n([\s\S]*?)\n```/g)) {
    try {
      const parsed = MergeRequest.safeParse(JSON.parse(match[1] as string));
      if (parsed.success) return parsed.data;
    } catch {
      // another fenced block; keep looking
    }
  }
  return undefined;
}
