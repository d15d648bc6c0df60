/**
 * Reading a failing check (its type, name and failure reasons) into the instruction that
 * should make it pass. Values such as a word limit or banned words come from the check's name
 * ("word-count max 150", "not-icontains-any [synergy, leverage]") or its reasons.
 */
import type { MutatorFeedback } from '../../../protocol/mutation.js';
import { parseFileHeading } from '../../../protocol/agent-output.js';
import type { Rng } from '../prng.js';
import { escapeRegExp, quotedStrings, unquote } from '../text.js';
import { lengthTarget, questionTarget, type Target } from './target.js';
import { valueTargets } from './value-targets.js';

const MAX_PATTERNS = [
  /\bmax(?:imum)?\s*(?:=|:|of|is)?\s*(\d+)/i,
  /(?:<=|≤|at most|no more than|limit(?: of)?|more than|above|exceeds?|over|>)\s*(\d+)/i,
];
const MIN_PATTERNS = [
  /\bmin(?:imum)?\s*(?:=|:|of|is)?\s*(\d+)/i,
  /(?:>=|≥|at least|fewer than|below|under|<)\s*(\d+)/i,
];

function firstNumber(texts: string[], patterns: RegExp[]): number | undefined {
  for (const text of texts)
    for (const pattern of patterns) {
      const match = pattern.exec(text);
      if (match) return Number.parseInt(match[1] as string, 10);
    }
  return undefined;
}

/** Values named by a check: a [list], quoted strings, or whatever follows the type in its name. */
function checkValues(name: string, type: string, reasons: string[]): string[] {
  const bracket = /\[([^\]]+)\]/.exec(name);
  if (bracket)
    return (bracket[1] as string)
      .split(',')
      .map(unquote)
      .filter((v) => v !== '');
  const quoted = [name, ...reasons].flatMap(quotedStrings).filter((v) => v !== '');
  if (quoted.length > 0) return [...new Set(quoted)];
  const rest = name
    .replace(new RegExp(`^${escapeRegExp(type)}\\b[\\s:=(]*`, 'i'), '')
    .replace(/\)$/, '')
    .trim();
  return rest !== '' && rest !== name && rest.length <= 60
    ? rest.split(/\s*,\s*/).filter((v) => v !== '')
    : [];
}

function roundLimit(max: number, rng: Rng): number {
  return Math.max(10, Math.floor((max * rng.pick([0.75, 0.8, 0.85])) / 10) * 10);
}

/** The instructions that should make a failing check pass: value rules for field checks, else one instruction. */
export function checkTargets(
  check: MutatorFeedback['check_failures'][number],
  reasons: string[],
  rng: Rng,
): Target[] {
  const share = `(${check.failed} of ${check.total} outputs fail it now)`;
  const effect = `will make the ${check.name} check pass on more outputs ${share}.`;
  const values = valueTargets(check, reasons, effect);
  if (values.length > 0) return values;
  const target = checkTarget(check, reasons, effect, rng);
  return target === undefined ? [] : [target];
}

function checkTarget(
  check: MutatorFeedback['check_failures'][number],
  reasons: string[],
  effect: string,
  rng: Rng,
): Target | undefined {
  const negated = check.type.startsWith('not-');
  const type = check.type.replace(/^not-/, '');
  const texts = [check.name, ...reasons];
  if (type === 'word-count' || type === 'char-count') {
    const max = firstNumber(texts, MAX_PATTERNS);
    const perWord = type === 'char-count' ? 6.5 : 1;
    if (max !== undefined) return lengthTarget(roundLimit(max / perWord, rng), effect);
    const min = firstNumber(texts, MIN_PATTERNS);
    if (min === undefined) return lengthTarget(100, effect);
    const words = Math.ceil((min / perWord) * 1.2);
    return {
      family: 'length',
      instruction: `Write at least ${words} words.`,
      short: `At least ${words} words.`,
      action: `Asking for at least ${words} words`,
      effect,
    };
  }
  const values = checkValues(check.name, check.type, reasons);
  if (type === 'starts-with' && !negated) {
    const value = values[0];
    if (value === undefined || /^subject:?$/i.test(value))
      return {
        family: 'opening',
        instruction: "Start the output with 'Subject:' and a short subject line.",
        short: "Start with 'Subject:'.",
        action: "Requiring a 'Subject:' line at the start",
        effect,
      };
    return {
      family: 'opening',
      instruction: `Start the output with '${value}'.`,
      short: `Start with '${value}'.`,
      action: `Telling the model to start with '${value}'`,
      effect,
    };
  }
  if (/^i?contains(?:-any|-all)?$/.test(type) && negated) {
    const words = values.map((v) => v.toLowerCase());
    if (words.length === 0)
      return {
        family: 'avoid',
        instruction: 'Avoid corporate jargon and buzzwords.',
        short: 'No jargon.',
        action: 'Banning corporate jargon',
        effect,
      };
    const list = words.join(', ');
    return {
      family: 'avoid',
      words,
      instruction: `Never use these words: ${list}.`,
      short: `Never use: ${list}.`,
      action: `Banning ${list} by name`,
      effect,
    };
  }
  const missing = type === 'file-exists' && !negated ? missingFile(reasons, values) : undefined;
  if (missing !== undefined)
    return {
      family: 'file',
      item: missing,
      instruction: `Write the result to the file \`${missing}\`.`,
      short: `Write \`${missing}\`.`,
      action: `Telling the agent to write ${missing}`,
      effect,
    };
  const file = negated ? undefined : values.map(parseFileHeading).find((v) => v !== undefined && !v.deleted);
  if (/^i?contains(?:-any|-all)?$/.test(type) && file)
    return {
      family: 'file',
      item: file.path,
      instruction: `Write the result to the file \`${file.path}\`.`,
      short: `Write \`${file.path}\`.`,
      action: `Telling the agent to write ${file.path}`,
      effect,
    };
  if (/^i?contains(?:-any|-all)?$/.test(type) && values.length > 0) {
    const item = type.endsWith('-any') ? (values[0] as string) : values.join(', ');
    return {
      family: 'mention',
      item,
      instruction: `Mention ${item}.`,
      short: `Mention ${item}.`,
      action: `Asking the model to mention ${item}`,
      effect,
    };
  }
  if (type === 'regex' && !negated && /\\\?|\?\$|question/i.test(texts.join(' ')))
    return questionTarget(effect);
  if (type === 'is-json' || type === 'contains-json')
    return {
      family: 'json',
      instruction: 'Reply with only a JSON object and no other text.',
      short: 'Reply with JSON only.',
      action: 'Asking for a bare JSON object',
      effect,
    };
  if (type === 'line-count') {
    const max = firstNumber(texts, MAX_PATTERNS);
    if (max !== undefined)
      return {
        family: 'sentences',
        instruction: `Write at most ${max} sentences.`,
        short: `At most ${max} sentences.`,
        action: `Capping the output at ${max} sentences`,
        effect,
      };
  }
  return undefined;
}

/** The path a failing `file-exists` wanted, from its reason (`X does not exist`) or its value; never a glob. */
function missingFile(reasons: string[], values: string[]): string | undefined {
  const named = reasons.map((reason) => /^(\S+) (?:does not exist|was deleted)/.exec(reason)?.[1]);
  const path = named.find((p) => p !== undefined) ?? values[0];
  return path === undefined || /[*?[{]/.test(path) ? undefined : path;
}
