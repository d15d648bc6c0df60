/**
 * The simulated generator: writes an output from the rendered prompt, obeying each instruction
 * family it recognises with some probability (0.85, or 0.95 when stated firmly). Without
 * instructions the output is mediocre: generic, 150–250 words, often jargon, no subject line,
 * no closing question.
 */
import { type Instructions, obeyProbability } from '../instructions.js';
import type { Rng } from '../prng.js';
import { parseScopedInstructions } from '../scopes.js';
import { countWords, lowerFirst } from '../text.js';
import { FILLER } from '../vocabulary.js';
import { buildJsonAnswer, describeJsonLoosely } from './generator-json.js';
import {
  closingQuestion,
  closingStatement,
  concreteSentence,
  fillerOpeners,
  greeting,
  jargonSentences,
  mentionSentence,
  plainSentences,
  type Register,
  signOff,
  subjectLine,
  warmSentence,
} from './generator-phrases.js';
import { extractDetails, type PromptDetails } from './prompt-details.js';

/** How often an unprompted output slips in corporate jargon. */
export const JARGON_PROBABILITY = 0.6;
/** How often an unprompted output happens to include a concrete figure. */
export const CONCRETE_BY_CHANCE = 0.15;
export const DEFAULT_WORDS = { min: 150, max: 250 } as const;
export const CONCISE_WORDS = { min: 70, max: 110 } as const;

interface Obeyed {
  maxWords?: number;
  minWords?: number;
  maxSentences?: number;
  opening?: string;
  mentions: string[];
  avoid: string[];
  endQuestion: boolean;
  bullets: boolean;
  json: boolean;
  register: Register;
  concise: boolean;
  direct: boolean;
  specifics: boolean;
}

/** One seeded draw per family (and per mention), each from its own stream. */
function decideObedience(instructions: Instructions, rng: Rng): Obeyed {
  const obeys = (label: string, rule: { firm: boolean } | undefined): boolean =>
    rule !== undefined && rng.fork(label).chance(obeyProbability(rule));
  const { tones } = instructions;
  const toneObeyed = obeys('tone', tones);
  const has = (tone: string): boolean => toneObeyed && !!tones?.value.includes(tone as never);
  return {
    maxWords: obeys('length', instructions.maxWords) ? instructions.maxWords?.value : undefined,
    minWords: obeys('min-length', instructions.minWords) ? instructions.minWords?.value : undefined,
    maxSentences: obeys('sentences', instructions.maxSentences)
      ? instructions.maxSentences?.value
      : undefined,
    opening: obeys('opening', instructions.opening) ? instructions.opening?.value : undefined,
    mentions: instructions.mentions
      .filter((rule, i) => obeys(`mention:${i}`, rule))
      .map((rule) => rule.value),
    avoid: obeys('avoid', instructions.avoid) ? (instructions.avoid?.value ?? []) : [],
    endQuestion: obeys('question', instructions.endQuestion),
    bullets: obeys('bullets', instructions.bullets),
    json: obeys('json', instructions.json),
    register: has('formal') ? 'formal' : has('warm') || has('friendly') ? 'warm' : 'plain',
    concise: has('concise'),
    direct: has('direct'),
    specifics: obeys('specifics', instructions.specifics),
  };
}

function clean(sentences: (string | undefined)[], avoid: string[]): string[] {
  return sentences.filter(
    (s): s is string =>
      s !== undefined && !avoid.some((word) => s.toLowerCase().includes(word.toLowerCase())),
  );
}

function targetWords(obeyed: Obeyed, rng: Rng): { target: number; atMost: boolean } {
  if (obeyed.maxWords !== undefined) {
    const max = obeyed.maxWords;
    return { target: rng.int(Math.floor(max * 0.55), Math.floor(max * 0.92)), atMost: true };
  }
  const range = obeyed.concise || obeyed.direct ? CONCISE_WORDS : DEFAULT_WORDS;
  const target = rng.int(range.min, range.max);
  return { target: Math.max(target, (obeyed.minWords ?? 0) + rng.int(10, 40)), atMost: false };
}

function paragraphs(body: string[], obeyed: Obeyed, details: PromptDetails): string[] {
  if (body.length === 0) return [];
  if (obeyed.bullets) return [body.map((s) => `- ${s}`).join('\n')];
  const size = obeyed.concise ? 2 : details.genre === 'email' ? Math.ceil(body.length / 2) : body.length;
  const groups: string[] = [];
  for (let i = 0; i < body.length; i += size) groups.push(body.slice(i, i + size).join(' '));
  return groups;
}

function openingLine(obeyed: Obeyed, details: PromptDetails, rng: Rng): string | undefined {
  if (obeyed.opening === undefined) return undefined;
  if (/^subject:?$/i.test(obeyed.opening)) return `Subject: ${subjectLine(details, rng)}`;
  return obeyed.opening;
}

function writeProse(obeyed: Obeyed, details: PromptDetails, rng: Rng): string {
  const email = details.genre === 'email';
  const quick = obeyed.concise || obeyed.direct;
  const jargonPicks = rng.fork('jargon');
  const jargon = jargonPicks.chance(JARGON_PROBABILITY)
    ? jargonPicks.shuffle(jargonSentences(details)).slice(0, jargonPicks.int(1, 2))
    : [];
  const fillerDraw = rng.fork('filler');
  const filler = email && !quick && fillerDraw.chance(0.7) ? fillerDraw.pick(fillerOpeners()) : undefined;
  const concreteDraw = rng.fork('concrete');
  const concrete =
    obeyed.specifics || concreteDraw.chance(CONCRETE_BY_CHANCE)
      ? concreteSentence(details, concreteDraw)
      : undefined;
  const mentions = obeyed.mentions.map((item, i) => mentionSentence(item, rng.fork(`mention:${i}`)));
  const warm = obeyed.register === 'warm' ? warmSentence() : undefined;
  // Concise or direct writing drops the stock phrases along with the opener.
  const banned = quick ? [...obeyed.avoid, ...FILLER] : obeyed.avoid;
  const pool = clean(rng.fork('pool').shuffle(plainSentences(details)), banned);
  // The first sentence about the topic always makes it in, so every case reads differently.
  const topical = pool.findIndex((s) => s.includes(lowerFirst(details.topic)));
  const intro = topical >= 0 ? pool.splice(topical, 1)[0] : undefined;
  const lead = clean(
    obeyed.direct
      ? [...mentions, concrete, intro, ...jargon]
      : [filler, warm, ...mentions, intro, concrete, ...jargon],
    banned,
  );
  const closingDraw = rng.fork('closing');
  const closing = obeyed.endQuestion
    ? closingQuestion(details, closingDraw)
    : closingStatement(details.genre, details, closingDraw);
  const opening = openingLine(obeyed, details, rng.fork('opening'));

  if (obeyed.maxSentences !== undefined) {
    const sentences = [...[...lead, ...pool].slice(0, Math.max(0, obeyed.maxSentences - 1)), closing];
    const text = obeyed.bullets ? sentences.map((s) => `- ${s}`).join('\n') : sentences.join(' ');
    return [opening, text].filter((p) => p !== undefined).join('\n\n');
  }

  const hello =
    email && (opening === undefined || opening.startsWith('Subject:'))
      ? greeting(obeyed.register, rng.fork('greeting'))
      : undefined;
  const bye = email && !obeyed.endQuestion ? signOff(obeyed.register, rng.fork('signoff')) : undefined;
  const { target, atMost } = targetWords(obeyed, rng.fork('length'));
  const framing = [opening, hello, closing, bye].reduce(
    (sum, part) => sum + (part ? countWords(part) : 0),
    0,
  );
  const body = [...lead];
  // A length limit is met by dropping the least useful sentences first: jargon, filler, pleasantries.
  while (atMost && body.length > 0 && framing + countWords(body.join(' ')) > target) {
    const drop = body.findIndex((s) => jargon.includes(s) || s === filler || s === warm);
    body.splice(drop >= 0 ? drop : body.length - 1, 1);
  }
  let words = framing + countWords(body.join(' '));
  for (const sentence of pool) {
    const next = words + countWords(sentence);
    if (atMost ? next > target : words >= target) break;
    body.push(sentence);
    words = next;
  }
  const blocks = paragraphs(body, obeyed, details);
  if (!email && blocks.length > 0 && !obeyed.bullets) blocks[blocks.length - 1] += ` ${closing}`;
  else blocks.push(closing);
  return [opening, hello, ...blocks, bye].filter((p) => p !== undefined).join('\n\n');
}

/** The output for a rendered prompt; instructions may also come from a system prompt, some scoped to the case's kind. */
export function generateOutput(prompt: string, rng: Rng, system = ''): string {
  const instructions = parseScopedInstructions(system === '' ? prompt : `${system}\n${prompt}`);
  const details = extractDetails(prompt);
  const obeyed = decideObedience(instructions, rng.fork('obey'));
  if (instructions.json) {
    const answer = buildJsonAnswer(instructions.json.value, details, rng.fork('json'));
    return obeyed.json ? JSON.stringify(answer, null, 2) : describeJsonLoosely(answer, rng.fork('loose'));
  }
  return writeProse(obeyed, details, rng);
}
