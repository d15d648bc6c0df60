/**
 * Models asked for "one JSON object and nothing else" sometimes wrap it in a code fence or a
 * sentence. Take the outermost object from the text; anything still unparseable is a
 * malformed reply the caller retries.
 */
export type ModelJson<T> = { ok: true; value: T } | { ok: false; problem: string };

/** What a reply is checked against: the part of a zod schema this module uses. */
export interface ShapeCheck<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

export function extractJsonObject(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n\s*```/.exec(text);
  const body = fenced?.[1] ?? text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(body.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

export function parseModelJson<T>(text: string, schema: ShapeCheck<T>): ModelJson<T> {
  const json = extractJsonObject(text);
  if (json === undefined) return { ok: false, problem: 'the reply holds no JSON object' };
  const parsed = schema.safeParse(json);
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
