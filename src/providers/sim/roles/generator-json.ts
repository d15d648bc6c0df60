/**
 * JSON answers for prompts that ask for them (e.g. a support ticket's category and priority):
 * every key the prompt names, filled with a value guessed from keywords in the case's text.
 */
import type { Rng } from '../prng.js';
import type { JsonSpec } from '../instructions.js';
import { contentWords, lowerFirst } from '../text.js';
import type { PromptDetails } from './prompt-details.js';

const CATEGORY_KEYWORDS: Record<string, string[]> = {
  billing: [
    'invoice',
    'charge',
    'charged',
    'refund',
    'payment',
    'billing',
    'price',
    'subscription',
    'card',
    'bill',
    'paid',
  ],
  technical: [
    'error',
    'crash',
    'bug',
    'broken',
    'not working',
    'fails',
    'failed',
    'timeout',
    'slow',
    'api',
    'outage',
  ],
  account: ['password', 'login', 'log in', 'sign in', 'account', 'locked', '2fa', 'username', 'access'],
  shipping: ['delivery', 'shipping', 'package', 'tracking', 'arrived', 'order', 'courier'],
  feedback: ['feature', 'suggestion', 'would be great', 'wish', 'idea', 'love'],
};
const URGENT = [
  'urgent',
  'asap',
  'immediately',
  'outage',
  'down',
  'cannot',
  "can't",
  'blocked',
  'critical',
  'production',
  'twice',
];
const MODERATE = ['issue', 'problem', 'error', 'wrong', 'soon', 'broken'];
const NEGATIVE = [
  'angry',
  'frustrated',
  'unacceptable',
  'terrible',
  'annoyed',
  'disappointed',
  'again',
  'still',
  'worst',
];
const POSITIVE = ['thanks', 'thank you', 'great', 'love', 'appreciate', 'happy'];

function hits(text: string, words: readonly string[]): number {
  const lower = text.toLowerCase();
  return words.filter((word) => lower.includes(word)).length;
}

function guessCategory(data: string, options: string[] | undefined): string {
  const scores = Object.entries(CATEGORY_KEYWORDS).map(([name, words]) => ({
    name,
    score: hits(data, words),
  }));
  scores.sort((a, b) => b.score - a.score);
  const best = scores[0]?.score ? scores[0].name : 'other';
  if (!options) return best;
  const scored = options.map((option) => {
    const lower = option.toLowerCase();
    const group = Object.entries(CATEGORY_KEYWORDS).find(
      ([name, words]) => lower.includes(name) || name.includes(lower) || words.includes(lower),
    );
    return { option, score: (group ? hits(data, group[1]) : 0) + hits(data, [lower]) * 2 };
  });
  const top = [...scored].sort((a, b) => b.score - a.score)[0];
  if (top && top.score > 0) return top.option;
  return options.find((o) => /other|general|misc/i.test(o)) ?? options[options.length - 1] ?? best;
}

function pickLevel(level: 0 | 1 | 2, names: [string, string, string], options: string[] | undefined): string {
  if (!options) return names[level];
  const patterns = [/high|urgent|critical|p1|severe/i, /medium|normal|moderate|p2/i, /low|minor|p3/i];
  const levelPattern = patterns[level] as RegExp;
  return (
    options.find((o) => levelPattern.test(o)) ?? options[Math.min(level, options.length - 1)] ?? names[level]
  );
}

function urgency(data: string): 0 | 1 | 2 {
  if (hits(data, URGENT) > 0) return 0;
  return hits(data, MODERATE) > 0 ? 1 : 2;
}

export function valueFor(key: string, spec: JsonSpec, details: PromptDetails, rng: Rng): unknown {
  const data = details.data;
  const options = spec.options[key];
  const lower = key.toLowerCase();
  if (/categor|type|label|class|department|intent|queue|team/.test(lower))
    return guessCategory(data, options);
  if (/priorit|urgen|severity/.test(lower))
    return pickLevel(urgency(data), ['high', 'medium', 'low'], options);
  if (/sentiment|mood|emotion/.test(lower)) {
    const level = hits(data, NEGATIVE) > 0 ? 2 : hits(data, POSITIVE) > 0 ? 0 : 1;
    return options
      ? (options.find((o) => [/pos/i, /neu/i, /neg/i][level]?.test(o)) ?? options[0])
      : ['positive', 'neutral', 'negative'][level];
  }
  if (options) return rng.pick(options);
  if (/^(?:is|has|needs|requires|should|can)_|escalat/.test(lower)) return urgency(data) === 0;
  if (/confidence|score|probability/.test(lower)) return Math.round((0.6 + rng.next() * 0.35) * 100) / 100;
  if (/summary|reason|explanation|description|rationale|title/.test(lower))
    return data.split(/\s+/).slice(0, 14).join(' ');
  if (/reply|response|answer|message|draft/.test(lower))
    return `Thanks for getting in touch about ${lowerFirst(details.topic)}; we are on it and will update you within one business day.`;
  if (/tags|keywords/.test(lower)) return contentWords(data).slice(0, 3);
  if (/language|lang/.test(lower)) return 'en';
  if (/count|number|amount|total/.test(lower)) return Number(/\d+/.exec(data)?.[0] ?? rng.int(1, 9));
  return contentWords(details.topic).slice(0, 4).join(' ') || 'unknown';
}

export function buildJsonAnswer(spec: JsonSpec, details: PromptDetails, rng: Rng): Record<string, unknown> {
  const keys = spec.keys.length > 0 ? spec.keys : ['summary'];
  return Object.fromEntries(keys.map((key) => [key, valueFor(key, spec, details, rng.fork(key))]));
}

/** What a model that half-ignores "reply in JSON" writes: the answer in prose, or JSON wrapped in chatter. */
export function describeJsonLoosely(answer: Record<string, unknown>, rng: Rng): string {
  if (rng.chance(0.5))
    return `Sure! Here is the result:\n${JSON.stringify(answer, null, 2)}\nLet me know if you need anything else.`;
  const parts = Object.entries(answer).map(([key, value]) => `${key.replace(/_/g, ' ')} is ${String(value)}`);
  return `Here is my assessment: ${parts.join(', ')}.`;
}
