/**
 * The instruction families the simulated generator understands (docs/sim.md lists them).
 * A prompt is read sentence by sentence; anything not matching a family is ignored, just as
 * a real model ignores what it does not understand here. The mutator uses the same reader to
 * know which families a prompt already states.
 */
import { splitSentences, quotedStrings, unquote } from './text.js';
import { VALUE_FAMILIES, VALUE_PATTERNS, type ValueFamily } from './value-rules.js';
import { FILLER, JARGON, TONES, type Tone } from './vocabulary.js';

export interface Rule<T> {
  value: T;
  /** Stated with must/always/never/strictly/important…: obeyed more reliably. */
  firm: boolean;
  clause: string;
}

export interface JsonSpec {
  keys: string[];
  /** Allowed values per key when the prompt lists them ("one of: a, b, c"). */
  options: Record<string, string[]>;
}

export interface Instructions {
  maxWords?: Rule<number>;
  minWords?: Rule<number>;
  maxSentences?: Rule<number>;
  /** The literal text the output must start with ("Subject:" for a subject line). */
  opening?: Rule<string>;
  mentions: Rule<string>[];
  avoid?: Rule<string[]>;
  endQuestion?: Rule<true>;
  bullets?: Rule<true>;
  json?: Rule<JsonSpec>;
  tones?: Rule<Tone[]>;
  specifics?: Rule<true>;
  /** Files an agent is told to write its result to (docs/design/agent-runs.md). */
  files: Rule<string>[];
  /** Rules for the values of structured answers and tool arguments (value-rules.ts). */
  values: Partial<Record<ValueFamily, Rule<true>>>;
}

export const OBEY_PROBABILITY = 0.85;
export const FIRM_OBEY_PROBABILITY = 0.95;

export function obeyProbability(rule: { firm: boolean }): number {
  return rule.firm ? FIRM_OBEY_PROBABILITY : OBEY_PROBABILITY;
}

/** Wording that states a rule firmly: a sentence, or a list header, holding it is obeyed more reliably. */
export const FIRM =
  /\b(?:must|always|never|strictly|important|required|requirement|hard (?:rule|limit)|without exception)\b/i;
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const COUNT = '(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)';

const MAX_WORDS = [
  /\b(?:under|below|at most|no more than|not more than|never more than|fewer than|less than|max(?:imum)?(?: of)?|up to|within|limit(?:ed)?(?: it)? to|cap(?: it)? at)\s+(\d{1,4})\s+words\b/i,
  /\b(\d{1,4})\s+words\s+(?:or (?:fewer|less)|max(?:imum)?|at most)\b/i,
  /\b(\d{1,4})-word (?:limit|maximum|max|cap)\b/i,
  /\bword count (?:under|below|of at most|<=?)\s*(\d{1,4})\b/i,
];
const MIN_WORDS = /\b(?:at least|no fewer than|no less than|minimum(?: of)?)\s+(\d{1,4})\s+words\b/i;
const MAX_SENTENCES = new RegExp(
  `\\b(?:in|at most|no more than|exactly|up to|under|only|use|write|just|keep it to|limit it to)\\s+${COUNT}\\s+(?:short\\s+|full\\s+)?sentences?\\b`,
  'i',
);
const OPEN_QUOTED =
  /\b(?:start|begin|open)s?\b(?:\s+(?:the|your|each|every)(?:\s+\w+){1,2}?)?\s+with\s+(?:the (?:line|word|text|phrase)\s+)?["'“‘`]([^"'”’`\n]{1,40})["'”’`]/i;
const SUBJECT_LINE = /\bsubject line\b/i;
/**
 * "Write the notes to `RELEASE_NOTES.md`", "save it as out/summary.md": a verb, a preposition, then
 * a path with a common file extension (so "write code for Node.js" names no file).
 */
const WRITE_FILE =
  /\b(?:write|save|put|store|create|produce)\b.*?\b(?:to|in|into|as|named|called)\s+(?:the\s+)?(?:file\s+)?[`'"]?((?:[\w.-]+\/)*[\w-]+\.(?:md|txt|json|ya?ml|csv|html?|xml|py|ts|js|sh|toml|rst))\b[`'"]?/i;
/\b(?:write|save|put|store|create|produce)\b.*?[`'"]?((?:[\w-]+\/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,5})\b[`'"]?/i;
const MENTION = /\b(?:mention|refer to|reference|bring up)\s+(.+)$/i;
const MENTION_QUALIFIER =
  /\s+(?:in (?:the )?(?:first|opening|last|final|second) (?:sentence|line|paragraph)|early(?: on)?|explicitly|by name|at least once|somewhere|up front|naturally|briefly)$/i;
const AVOID =
  /\b(?:never (?:use|say|mention)|do not (?:use|say|mention)|don't (?:use|say|mention)|avoid(?: using)?|must not (?:use|contain|include)|without using|steer clear of|banned words?)\b:?\s*(.*)$/i;
const NO_JARGON = /\bno (?:corporate )?(?:jargon|buzzwords?|filler)\b/i;
const GENERIC_AVOID = /\b(?:jargon|buzzwords?|corporate speak|filler|clich[eé]s?)\b/i;
const QUESTION_END = [
  /\b(?:end|finish|close|conclude|wrap up)(?:s|ing)?\b[^.]{0,40}?\bquestion\b/i,
  /\b(?:last|final) (?:sentence|line) (?:must|should) be a question\b/i,
];
const BULLETS = /\bbullet(?:ed|s)?\b|\bas a list\b/i;
const JSON_WORD = /\bjson\b/i;
const SPECIFICS =
  /\b(?:include|give|add|cite|use|share)\s+(?:at least\s+)?(?:one|a|an|two|some)?\s*(?:concrete|specific|real)\s+(?:number|figure|metric|statistic|stat|example|detail|data point|result)s?\b|\bbe (?:concrete|specific)\b/i;
const TONE_CONTEXT = /\b(?:tone|be|keep|sound|write|style|voice|stay)\b/i;

interface Clause {
  text: string;
  firm: boolean;
}

function negated(clause: string, word: string): boolean {
  return new RegExp(`\\b(?:no|not|without|never|don't|do not|avoid)\\b[^.]{0,20}\\b${word}`, 'i').test(
    clause,
  );
}

/** Sentences with their firmness; a list under a firm header ("Rules you must follow:") is firm. */
function splitClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  let listFirm = false;
  // "e.g." would otherwise end a sentence in the middle of a word list
  const protectedText = text.replace(/\be\.g\.,?/gi, 'eg').replace(/\bi\.e\.,?/gi, 'ie');
  for (const line of protectedText.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const isItem = /^(?:\d+[.)]|[-*•])\s+/.test(trimmed);
    const lineFirm = FIRM.test(trimmed);
    if (!isItem) listFirm = lineFirm && trimmed.endsWith(':');
    for (const sentence of splitSentences(trimmed.replace(/^(?:\d+[.)]|[-*•])\s+/, ''))) {
      clauses.push({ text: sentence, firm: lineFirm || (isItem && listFirm) });
    }
  }
  return clauses;
}

function parseCount(raw: string): number {
  return NUMBER_WORDS[raw.toLowerCase()] ?? Number.parseInt(raw, 10);
}

function parseAvoidList(fullTail: string): string[] {
  // "Avoid jargon; keep the tone warm": the list ends where the next clause starts.
  const tail = fullTail.split(/;|\s[—–-]\s/)[0] ?? '';
  const quoted = quotedStrings(tail);
  const items = quoted.length > 0 ? quoted : splitList(tail);
  const words = items
    .map((item) => unquote(item).toLowerCase())
    .filter((item) => item !== '' && item.split(/\s+/).length <= 4 && !GENERIC_AVOID.test(item));
  if (GENERIC_AVOID.test(tail)) words.push(...JARGON, ...FILLER);
  return [...new Set(words)];
}

function splitList(tail: string): string[] {
  const cleaned = tail
    .replace(/[()]/g, ',')
    .replace(
      /\b(?:eg|such as|like|including|the following|these|those|any of|words?|terms?|phrases?)\b:?/gi,
      ',',
    )
    .replace(/[.:]+\s*$/, '');
  return cleaned
    .split(/,|;|\/|\bor\b|\band\b/i)
    .map((item) => item.trim().replace(/[.:]+$/, ''))
    .filter((item) => item !== '');
}

function parseMentions(tail: string): string[] {
  let rest = tail.trim().replace(/[.!;:]+$/, '');
  for (let previous = ''; previous !== rest; ) {
    previous = rest;
    rest = rest.replace(MENTION_QUALIFIER, '');
  }
  return rest
    .split(/\s*[;,]\s*(?:and\s+)?/)
    .map((item) => unquote(item))
    .filter((item) => item !== '');
}

function parseJsonSpec(clause: string, whole: string): JsonSpec {
  const identifiers = (text: string): string[] =>
    [...text.matchAll(/[`"]([A-Za-z_][A-Za-z0-9_]*)[`"]/g)].map((m) => m[1] as string);
  let keys = identifiers(clause);
  if (keys.length === 0) {
    const listed =
      /\b(?:keys?|fields?|properties)\s*:?\s*([A-Za-z_]\w*(?:\s*(?:,|and)\s*[A-Za-z_]\w*)*)/i.exec(clause);
    keys = listed ? (listed[1] as string).split(/\s*(?:,|\band\b)\s*/).filter((k) => k !== '') : [];
  }
  if (keys.length === 0) keys = [...new Set(identifiers(whole))];
  const options: Record<string, string[]> = {};
  const optionPattern =
    /[`"]?([A-Za-z_]\w*)[`"]?\s*(?:\(\s*(?:one of|either)\s*:?\s*([^)]+)\)|(?:must|should) be (?:one of\s*:?\s*)([^.\n]+))/gi;
  for (const match of whole.matchAll(optionPattern)) {
    const key = match[1] as string;
    const values = splitList((match[2] ?? match[3] ?? '').replace(/\bor\b/gi, ','))
      .map(unquote)
      .filter((v) => v !== '');
    if (keys.includes(key) && values.length > 0) options[key] = values;
  }
  return { keys: [...new Set(keys)], options };
}

export function parseInstructions(text: string): Instructions {
  const found: Instructions = { mentions: [], files: [], values: {} };
  const clauses = splitClauses(text);
  for (const { text: clause, firm } of clauses) {
    const rule = <T>(value: T): Rule<T> => ({ value, firm, clause });
    for (const pattern of MAX_WORDS) {
      const match = pattern.exec(clause);
      if (!match) continue;
      const value = Number.parseInt(match[1] as string, 10);
      const previous = found.maxWords;
      if (!previous || value < previous.value)
        found.maxWords = { ...rule(value), firm: firm || !!previous?.firm };
      else if (firm) previous.firm = true;
      break;
    }
    const min = MIN_WORDS.exec(clause);
    if (min) found.minWords = rule(Number.parseInt(min[1] as string, 10));
    const sentences = MAX_SENTENCES.exec(clause);
    if (sentences) found.maxSentences = rule(parseCount(sentences[1] as string));
    const quotedOpening = OPEN_QUOTED.exec(clause);
    if (!found.opening && quotedOpening) found.opening = rule((quotedOpening[1] as string).trim());
    else if (!found.opening && SUBJECT_LINE.test(clause) && !negated(clause, 'subject line'))
      found.opening = rule('Subject:');
    const avoid = AVOID.exec(clause);
    if (avoid || NO_JARGON.test(clause)) {
      const words = parseAvoidList(avoid ? (avoid[1] as string) : 'jargon');
      if (words.length > 0) {
        const all = [...new Set([...(found.avoid?.value ?? []), ...words])];
        found.avoid = { value: all, firm: firm || !!found.avoid?.firm, clause };
      }
    }
    const mention = MENTION.exec(clause);
    if (mention && !negated(clause, 'mention')) {
      for (const item of parseMentions(mention[1] as string)) found.mentions.push(rule(item));
    }
    if (QUESTION_END.some((p) => p.test(clause)) && !negated(clause, 'question'))
      found.endQuestion = { ...rule(true as const), firm: firm || !!found.endQuestion?.firm };
    if (BULLETS.test(clause) && !negated(clause, 'bullet')) found.bullets = rule(true as const);
    if (JSON_WORD.test(clause) && !negated(clause, 'json') && !found.json)
      found.json = rule(parseJsonSpec(clause, text));
    if (SPECIFICS.test(clause)) found.specifics = rule(true as const);
    const file = WRITE_FILE.exec(clause);
    if (file && !negated(clause, '(?:write|save|put|store|create|produce)'))
      found.files.push(rule(file[1] as string));
    for (const family of VALUE_FAMILIES)
      if (VALUE_PATTERNS[family].test(clause))
        found.values[family] = { ...rule(true as const), firm: firm || !!found.values[family]?.firm };
    if (TONE_CONTEXT.test(clause)) {
      const tones = TONES.filter(
        (tone) => new RegExp(`\\b${tone}\\b`, 'i').test(clause) && !negated(clause, tone),
      );
      if (tones.length > 0) {
        const all = [...new Set([...(found.tones?.value ?? []), ...tones])];
        found.tones = { value: all, firm: firm || !!found.tones?.firm, clause };
      }
    }
  }
  return found;
}

export type Family =
  | 'length'
  | 'sentences'
  | 'opening'
  | 'mention'
  | 'avoid'
  | 'question'
  | 'bullets'
  | 'json'
  | 'tone'
  | 'specifics'
  | 'file'
  | ValueFamily;

/** Which families a prompt states, and whether firmly. */
export function statedFamilies(instructions: Instructions): Map<Family, boolean> {
  const stated = new Map<Family, boolean>();
  const note = (family: Family, rule: { firm: boolean } | undefined): void => {
    if (rule) stated.set(family, (stated.get(family) ?? false) || rule.firm);
  };
  note('length', instructions.maxWords ?? instructions.minWords);
  note('sentences', instructions.maxSentences);
  note('opening', instructions.opening);
  for (const mention of instructions.mentions) note('mention', mention);
  note('avoid', instructions.avoid);
  note('question', instructions.endQuestion);
  note('bullets', instructions.bullets);
  note('json', instructions.json);
  note('tone', instructions.tones);
  note('specifics', instructions.specifics);
  for (const file of instructions.files) note('file', file);
  for (const family of VALUE_FAMILIES) note(family, instructions.values[family]);
  return stated;
}
