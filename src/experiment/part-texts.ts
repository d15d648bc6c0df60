/**
 * The loop's prompt is one text (docs/design/prompt-shapes.md): with one optimisable part, that
 * part's text exactly as before prompt parts existed; with several, a parts document holding every
 * optimisable part's text after a marker line naming it, in request order:
 *
 *   <!-- part: system -->
 *   You are…
 *   <!-- part: messages[1] -->
 *   Answer {{question}}.
 *
 * Everything that stores, hashes or compares prompts (a candidate's prompt.md, best.md, the
 * tried-prompt hashes, events) works on that one text, so a duplicate is judged over the whole
 * set of parts; the places that need a part by name — the request, the mutator, git, `diff`,
 * `apply`, the report — split it here. A part's text may not hold a marker line itself, so
 * the split is exact.
 */
import type { PartName, PromptShape } from './types.js';

/** Part name → text, in request order. */
export type PartTexts = Record<PartName, string>;

const MARKER = /^<!-- part: (.+) -->$/;

export function partMarker(name: PartName): string {
  return `<!-- part: ${name} -->`;
}

/** The names of the parts the loop may change, in request order. */
export function optimisedNames(shape: PromptShape): PartName[] {
  return shape.parts.filter((p) => p.optimise).map((p) => p.name);
}

/** More than one optimisable part: the prompt is a parts document. */
export function hasSeveralParts(shape: PromptShape): boolean {
  return optimisedNames(shape).length > 1;
}

/** Several optimisable parts: each one's file by name, in request order; undefined for one part. */
export function partPaths(shape: PromptShape): Record<PartName, string> | undefined {
  if (!hasSeveralParts(shape)) return undefined;
  return Object.fromEntries(shape.parts.filter((p) => p.optimise).map((p) => [p.name, p.path as string]));
}

/** The loop's prompt: the one part's text, or the parts document. */
export function joinPartTexts(texts: PartTexts): string {
  const entries = Object.entries(texts);
  if (entries.length === 1) return (entries[0] as [string, string])[1];
  return entries.map(([name, text]) => `${partMarker(name)}\n${text}`).join('\n');
}

/** The texts of `names` in `prompt` (as joinPartTexts wrote it); throws when it is not such a document. */
export function splitPromptText(prompt: string, names: readonly PartName[]): PartTexts {
  if (names.length === 1) return { [names[0] as string]: prompt };
  const texts: PartTexts = {};
  let rest = prompt;
  for (const [i, name] of names.entries()) {
    const head = `${partMarker(name)}\n`;
    if (!rest.startsWith(head))
      throw new Error(`the prompt is not a parts document: part \`${name}\` is missing`);
    rest = rest.slice(head.length);
    const next = names[i + 1];
    if (next === undefined) {
      texts[name] = rest;
      break;
    }
    const at = rest.indexOf(`\n${partMarker(next)}\n`);
    if (at < 0) throw new Error(`the prompt is not a parts document: part \`${next}\` is missing`);
    texts[name] = rest.slice(0, at);
    rest = rest.slice(at + 1);
  }
  return texts;
}

/** A line of `text` that reads as a part marker (forbidden inside a part), or undefined. */
export function findMarkerLine(text: string): string | undefined {
  return text.split('\n').find((line) => MARKER.test(line.replace(/\r$/, '')));
}
