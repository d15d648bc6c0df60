/**
 * Instructions scoped to one kind of case ("For setup requests, write at least 144 words."),
 * so the simulated generator can be given a landscape where an instruction that helps one kind
 * of case hurts another and only a scoped one helps both (docs/sim.md, `experiments/inbox-replies`).
 * A prompt has kinds when one of its labelled lines names them ("Kind: quick question"); a
 * scoped line applies only when its scope names the case's kind, and then its rules take the
 * place of the unscoped rules of the same families. A prompt without such a line is read as before.
 */
import { FIRM, type Instructions, parseInstructions } from './instructions.js';
import { splitSentences } from './text.js';

/** "Kind: …", "Type: …", "Request type: …": the line that says which kind a case is. */
const KIND_LINE = /^\s*(?:[A-Za-z]+[ -])?(?:kind|type):[ \t]*(\S.*)$/im;
/** "For quick questions, …" / "For a setup request: …", optionally as a list item. */
const SCOPED_LINE =
  /^\s*(?:(?:\d+[.)]|[-*•])\s+)?for\s+(?:an?\s+|the\s+)?([A-Za-z][A-Za-z -]{1,40}?)\s*[,:]\s*(\S.*)$/i;
const NOT_A_SCOPE = /^(?:example|instance|now|all|each|every|best results|reference|context)\b/i;

/** The case's kind as its labelled line states it, or undefined when the prompt has no kinds. */
export function kindOf(text: string): string | undefined {
  const kind = KIND_LINE.exec(text)?.[1]?.trim();
  return kind === undefined || kind === '' ? undefined : kind;
}

/** A line's scope and the instruction it scopes, or undefined for an unscoped line. */
export function scopeOf(line: string): { scope: string; body: string } | undefined {
  const match = SCOPED_LINE.exec(line);
  if (!match || NOT_A_SCOPE.test(match[1] as string)) return undefined;
  return { scope: (match[1] as string).trim(), body: (match[2] as string).trim() };
}

/** Crude stem: "questions" → "question", "requests" → "request", "replies" → "reply". */
function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.endsWith('ies') && lower.length > 4) return `${lower.slice(0, -3)}y`;
  if (lower.endsWith('s') && !lower.endsWith('ss') && lower.length > 3) return lower.slice(0, -1);
  return lower;
}

function stems(text: string): string[] {
  return (text.match(/[A-Za-z]+/g) ?? []).filter((w) => w.length >= 3).map(stem);
}

/** Whether a scope ("quick questions") names a kind ("quick question"): every scope word is in it. */
export function scopeMatches(scope: string, kind: string): boolean {
  const wanted = stems(scope);
  const have = new Set(stems(kind));
  return wanted.length > 0 && wanted.every((word) => have.has(word));
}

/** "quick question" → "quick questions": how the mutator names a kind in a scoped line. */
export function pluralKind(kind: string): string {
  const trimmed = kind.trim().toLowerCase();
  if (/(?:s|x|ch|sh)$/.test(trimmed)) return `${trimmed}es`;
  if (/[^aeiou]y$/.test(trimmed)) return `${trimmed.slice(0, -1)}ies`;
  return `${trimmed}s`;
}

/** A scoped rule replaces the unscoped rule of its family; lists (mentions) are joined. */
function override(general: Instructions, scoped: Instructions): Instructions {
  const merged: Instructions = { ...general, mentions: [...general.mentions, ...scoped.mentions] };
  if (scoped.maxWords || scoped.minWords) {
    delete merged.maxWords;
    delete merged.minWords;
    if (scoped.maxWords) merged.maxWords = scoped.maxWords;
    if (scoped.minWords) merged.minWords = scoped.minWords;
  }
  if (scoped.maxSentences) merged.maxSentences = scoped.maxSentences;
  if (scoped.opening) merged.opening = scoped.opening;
  if (scoped.avoid) merged.avoid = scoped.avoid;
  if (scoped.endQuestion) merged.endQuestion = scoped.endQuestion;
  if (scoped.bullets) merged.bullets = scoped.bullets;
  if (scoped.json) merged.json = scoped.json;
  if (scoped.tones) merged.tones = scoped.tones;
  if (scoped.specifics) merged.specifics = scoped.specifics;
  merged.values = { ...general.values, ...scoped.values };
  return merged;
}

const LIST_ITEM = /^\s*(?:\d+[.)]|[-*•])\s+/;

/**
 * The instructions a rendered prompt gives for its case: without a kind line exactly
 * parseInstructions; with one, scoped sentences count only when they name the case's kind
 * (a scoped sentence keeps the firmness of its line, or of the firm list it is an item of).
 */
export function parseScopedInstructions(text: string): Instructions {
  const kind = kindOf(text);
  if (kind === undefined) return parseInstructions(text);
  const general: string[] = [];
  const scoped: string[] = [];
  let listFirm = false;
  for (const line of text.split('\n')) {
    const item = LIST_ITEM.test(line);
    if (!item && line.trim() !== '') listFirm = FIRM.test(line) && line.trim().endsWith(':');
    const firm = FIRM.test(line) || (item && listFirm);
    let kept = line;
    for (const sentence of splitSentences(line.replace(LIST_ITEM, '')).reverse()) {
      const scope = scopeOf(sentence.replace(/^(?:important|note|rule):\s*/i, ''));
      if (!scope) continue;
      kept = kept.replace(sentence, '');
      if (scopeMatches(scope.scope, kind)) scoped.push(firm ? `Important: ${scope.body}` : scope.body);
    }
    // A list item whose every sentence was scoped leaves no empty item behind.
    general.push(kept.replace(LIST_ITEM, '').trim() === '' ? '' : kept);
  }
  return override(parseInstructions(general.join('\n')), parseInstructions(scoped.join('\n')));
}
