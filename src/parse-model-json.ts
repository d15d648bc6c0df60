/**
 * Models asked for "one JSON object and nothing else" sometimes wrap it in a code fence or a
 * sentence. Take the one object from the text; none, more than one, or one of the wrong
 * shape is a malformed reply the caller retries. At the root of src/ beside find-json.ts: one
 * helper for every model reply that must be JSON, the judge's and the grader's alike.
 */
import { findJsonObjects } from './find-json.js';

/** Tries per model call when the reply is malformed, in the built-in judge and grader alike. */
export const DEFAULT_REPLY_ATTEMPTS = 3;

export type ModelJson<T> = { ok: true; value: T } | { ok: false; problem: string };

/** What a reply is checked against: the part of a zod schema this module uses. */
export interface ShapeCheck<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

export function parseModelJson<T>(text: string, schema: ShapeCheck<T>): ModelJson<T> {
  const objects = findJsonObjects(text);
  if (objects.length === 0) return { ok: false, problem: 'the reply holds no JSON object' };
  if (objects.length > 1)
    return { ok: false, problem: `the reply holds ${objects.length} JSON objects, not one` };
  const parsed = schema.safeParse(objects[0]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
    return {
      ok: false,
      problem: `the reply does not fit the expected shape (${where}${issue?.message ?? '?'})`,
    };
  }
  return { ok: true, value: parsed.data };
}
