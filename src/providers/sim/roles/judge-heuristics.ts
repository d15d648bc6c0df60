/**
 * How the simulated judge scores one criterion of one output: the criterion's key, title and
 * description pick a heuristic family by keyword; each family scores the output text alone
 * (it never sees the case vars) on the 1–5 scale and names what earned or lost points.
 */
import { countWords, splitSentences } from '../text.js';
import { FILLER, JARGON, findTerms } from '../vocabulary.js';

export type HeuristicFamily =
  | 'subject'
  | 'opening'
  | 'question'
  | 'length'
  | 'json'
  | 'specificity'
  | 'tone'
  | 'structure'
  | 'general';

export interface Assessment {
  score: number;
  /** What earned points, when the score is good. */
  good?: string;
  /** What lost points, when the score is poor. */
  bad?: string;
}

const FAMILY_KEYWORDS: [HeuristicFamily, RegExp][] = [
  ['subject', /subject|headline|\btitle/],
  ['opening', /hook|opening|first[ _]line|intro/],
  ['question', /call[ _]to[ _]action|\bcta\b|question|next[ _]step|\bask|action|engag|reply/],
  ['length', /brev|concis|length|short|succinct|word|economy|tight/],
  ['json', /json|schema|valid|pars|field/],
  ['specificity', /specific|concrete|relevan|personal|detail|tailor|context|evidence|accura|insight|value/],
  ['tone', /tone|jargon|voice|style|professional|human|plain|natural|warm|friendl|polite|authentic/],
  ['structure', /clarity|clear|structur|format|readab|organi|flow|scan|coheren/],
];

/** The key decides first, then the title, then the description; otherwise a general quality score. */
export function familyFor(key: string, title: string, description: string): HeuristicFamily {
  for (const text of [key, title, description]) {
    const lower = text.toLowerCase();
    for (const [family, pattern] of FAMILY_KEYWORDS) if (pattern.test(lower)) return family;
  }
  return 'general';
}

const GENERIC = [
  'many businesses',
  'of all sizes',
  'wide range',
  'high-quality',
  'easy to use',
  'a number of ways',
  'many factors',
  'every situation is unique',
  'one-size-fits-all',
  'we have you covered',
  'add value',
];
const SIGN_OFF_LINE = /^(?:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}|[\w ]{1,30},)$/;

function clamp(score: number): number {
  return Math.min(5, Math.max(1, Math.round(score)));
}

/** The text without the sign-off lines an email ends with ("Best regards,", "Alex"). */
function withoutSignOff(text: string): string {
  const lines = text.trimEnd().split('\n');
  while (lines.length > 1 && SIGN_OFF_LINE.test((lines[lines.length - 1] ?? '').trim())) lines.pop();
  return lines.join('\n');
}

function assessLength(text: string): Assessment {
  const words = countWords(text);
  if (words >= 40 && words <= 140) return { score: 5, good: `a tight length (${words} words)` };
  if ((words > 140 && words <= 170) || (words >= 25 && words < 40))
    return { score: 4, good: `a reasonable length (${words} words)` };
  if (words > 170 && words <= 210) return { score: 3, bad: `runs long at ${words} words` };
  if (words >= 15 && words < 25) return { score: 3, bad: `is thin at ${words} words` };
  return {
    score: words > 210 && words <= 260 ? 2 : 1,
    bad: words > 140 ? `runs far too long at ${words} words` : `is far too short (${words} words)`,
  };
}

function assessQuestion(text: string): Assessment {
  const sentences = splitSentences(withoutSignOff(text));
  const last = sentences[sentences.length - 1] ?? '';
  if (last.endsWith('?')) {
    const specific = /\d|monday|tuesday|wednesday|thursday|friday|minute|call|week|quarter|today/i.test(last);
    return { score: specific ? 5 : 4, good: 'a clear closing question' };
  }
  if (text.includes('?')) return { score: 3, bad: 'a question buried before the end' };
  if (/let me know|reach out|reply|get in touch|book|schedule|call/i.test(text))
    return { score: 2, bad: 'a vague invitation instead of a closing question' };
  return { score: 1, bad: 'no ask or next step' };
}

function assessSpecificity(text: string): Assessment {
  const numbers = text.split(/\s+/).filter((w) => /\d/.test(w)).length;
  const names = new Set(
    splitSentences(text).flatMap((s) =>
      s
        .split(/\s+/)
        .slice(1)
        .filter((w) => /^[A-Z][A-Za-z]+/.test(w) && w !== 'I'),
    ),
  ).size;
  const you = (text.match(/\byou(?:r)?\b/gi) ?? []).length;
  const generic = findTerms(text, GENERIC).length;
  const score =
    2 +
    (numbers > 0 ? 1 : 0) +
    (names >= 2 ? 1 : 0) +
    (you >= 2 ? 1 : 0) -
    (generic >= 4 ? 2 : generic >= 2 ? 1 : 0);
  if (score >= 4)
    return { score: clamp(score), good: numbers > 0 ? 'a concrete figure' : 'details aimed at the reader' };
  return {
    score: clamp(score),
    bad: generic >= 2 ? 'generic claims that could fit any reader' : 'few concrete details',
  };
}

function assessTone(text: string): Assessment {
  const jargon = findTerms(text, JARGON);
  const filler = findTerms(text, FILLER);
  const shouting = (text.match(/!/g) ?? []).length >= 3 ? 1 : 0;
  const score = clamp(5 - Math.min(3, jargon.length) - Math.min(2, filler.length) - shouting);
  if (jargon.length > 0) return { score, bad: `jargon such as "${jargon[0]}"` };
  if (filler.length > 0) return { score, bad: `filler like "${filler[0]}"` };
  return { score, good: 'plain, jargon-free wording' };
}

function assessStructure(text: string): Assessment {
  const sentences = splitSentences(text);
  const lengths = sentences.map(countWords);
  const average = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const blocks = text.split(/\n\s*\n/).filter((b) => b.trim() !== '');
  const bullets = /^\s*(?:[-*•]|\d+[.)])\s/m.test(text);
  let score = 3 + (blocks.length >= 2 || bullets ? 1 : 0) + (average <= 18 ? 1 : 0);
  if (Math.max(0, ...lengths) > 35) score -= 1;
  if (blocks.some((b) => countWords(b) > 80)) score -= 1;
  return score >= 4
    ? { score: clamp(score), good: 'short paragraphs that are easy to scan' }
    : { score: clamp(score), bad: 'dense blocks of text' };
}

function assessSubject(text: string): Assessment {
  const first = text.trimStart().split('\n')[0] ?? '';
  const subject = /^subject:\s*(.+)$/i.exec(first);
  if (subject) {
    const words = countWords(subject[1] as string);
    return words >= 2 && words <= 8
      ? { score: 5, good: 'a short subject line' }
      : { score: 4, good: 'a subject line' };
  }
  if (/^(?:hi|hello|dear|good morning|hey)\b/i.test(first)) return { score: 2, bad: 'no subject line' };
  return { score: 1, bad: 'no subject line' };
}

function assessOpening(text: string): Assessment {
  const first =
    splitSentences(text).find((s) => !/^(?:subject:|hi\b|hello\b|dear\b|good morning\b|hey\b)/i.test(s)) ??
    '';
  if (findTerms(first, FILLER).length > 0) return { score: 2, bad: 'a stock opening line' };
  if (countWords(first) > 25) return { score: 3, bad: 'a long-winded first sentence' };
  return /\d|\byou/i.test(first)
    ? { score: 5, good: 'an opening that gets to the point' }
    : { score: 4, good: 'a direct opening' };
}

function assessJson(text: string): Assessment {
  const parsed = tryParse(text.trim());
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const values = Object.values(parsed);
    const filled = values.length > 0 && values.every((v) => v !== '' && v !== null);
    return filled
      ? { score: 5, good: 'valid JSON with every field filled' }
      : { score: 4, good: 'valid JSON' };
  }
  const embedded = /\{[\s\S]*\}/.exec(text);
  if (embedded && tryParse(embedded[0]) !== undefined)
    return { score: 3, bad: 'JSON wrapped in extra prose' };
  return { score: 1, bad: 'no parseable JSON' };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function assess(family: HeuristicFamily, text: string): Assessment {
  switch (family) {
    case 'subject':
      return assessSubject(text);
    case 'opening':
      return assessOpening(text);
    case 'question':
      return assessQuestion(text);
    case 'length':
      return assessLength(text);
    case 'json':
      return assessJson(text);
    case 'specificity':
      return assessSpecificity(text);
    case 'tone':
      return assessTone(text);
    case 'structure':
      return assessStructure(text);
    case 'general': {
      const parts = [assessLength(text), assessSpecificity(text), assessTone(text), assessStructure(text)];
      const score = clamp(parts.reduce((sum, p) => sum + p.score, 0) / parts.length);
      return { score, good: parts.find((p) => p.good)?.good, bad: parts.find((p) => p.bad)?.bad };
    }
  }
}
