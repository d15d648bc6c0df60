/**
 * The simulated mutator's edits for a skill-trigger experiment (docs/agents.md "Tuning when a
 * skill triggers"): the train cases shown that fail `skill-used` are requests the agent should
 * have used the skill for, those failing `not-skill-used` requests it should have left alone. It
 * edits the `description:` in the SKILL.md front matter, as a skill author would: widen it with
 * the words the missed requests share ("Use it when a request mentions …"), or narrow it with the
 * words that set the wrong ones apart ("Not for requests about …"). The more common failure
 * goes first. Only what the feedback shows is read — train cases, never holdout.
 */
import { contentWords, splitSentences } from '../text.js';
import type { MutatorFeedback } from '../../../protocol/mutation.js';
import { stemWord } from '../../../agent/sim-skill-choice.js';

/** One edit to try, with the shorter versions of it for a tight length budget. */
export interface TriggerFix {
  action: string;
  effect: string;
  prompts: string[];
}

const WIDEN = /Use it when a request mentions ([^.]*)\./;
const NARROW = /Not for requests about ([^.]*)\./;
/** Words too general to tell one request from another. */
const VAGUE = new Set(
  'use skill user request please want need help make thing new can could would should'
    .split(' ')
    .map(stemWord),
);
/** At most this many words go into one edit. */
const WORDS = 4;

interface Description {
  /** The prompt's lines, and the index of the `description:` line among them. */
  lines: string[];
  index: number;
  text: string;
  quote: '' | '"' | "'";
}

/** The front matter's one-line `description:`; undefined when the prompt has none to edit. */
function findDescription(prompt: string): Description | undefined {
  const lines = prompt.split('\n');
  if (lines[0]?.trim() !== '---') return undefined;
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  for (let index = 1; index < end; index++) {
    const match = /^description:\s*(.*?)\s*$/.exec(lines[index] ?? '');
    if (!match) continue;
    const value = match[1] ?? '';
    // A block scalar (| or >) spans lines: not one this mutator rewrites.
    if (value === '' || value.startsWith('|') || value.startsWith('>')) return undefined;
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
    const text = quote === '' ? value : value.slice(1, value.endsWith(quote) ? -1 : undefined);
    return { lines, index, text, quote };
  }
  return undefined;
}

function withDescription(found: Description, text: string): string {
  const lines = [...found.lines];
  lines[found.index] = `description: ${found.quote}${text}${found.quote}`;
  return lines.join('\n');
}

/** "a, b or c" ↔ ['a', 'b', 'c']. */
function listOf(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
function wordsOf(list: string): string[] {
  return list
    .split(/,\s*|\s+or\s+/)
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

/** The description with `words` added to its sentence of that kind (appended when it has none). */
function extend(
  description: string,
  pattern: RegExp,
  sentence: (list: string) => string,
  words: string[],
): string {
  const match = pattern.exec(description);
  if (!match) return `${description.trimEnd().replace(/([^.!?])$/, '$1.')} ${sentence(listOf(words))}`;
  const merged = [...wordsOf(match[1] ?? ''), ...words];
  return description.replace(match[0], sentence(listOf(merged)));
}

/** The case's request: its var values, which the agent's task is made from. */
function requestOf(c: MutatorFeedback['failing_cases'][number]): string {
  return Object.values(c.vars).join(' ');
}

/**
 * The requests' words, those found in more of them first, then in the order they came; without
 * the words `known` already covers (by stem) and vague ones.
 */
function rankWords(requests: readonly string[], known: ReadonlySet<string>): string[] {
  const seen = new Map<string, { word: string; count: number; first: number }>();
  let order = 0;
  for (const request of requests)
    for (const word of new Set(contentWords(request.replace(/[-_]/g, ' ')))) {
      const stem = stemWord(word);
      if (known.has(stem) || VAGUE.has(stem) || /^\d+$/.test(word)) continue;
      const entry = seen.get(stem) ?? { word, count: 0, first: order++ };
      entry.count += 1;
      seen.set(stem, entry);
    }
  return [...seen.values()].sort((a, b) => b.count - a.count || a.first - b.first).map((e) => e.word);
}

function stemsOf(text: string): Set<string> {
  return new Set(contentWords(text.replace(/-/g, ' ')).map(stemWord));
}

function shortened(found: Description, make: (words: string[]) => string, words: string[]): string[] {
  return [words.length, 2, 1]
    .filter((n, i, all) => n <= words.length && all.indexOf(n) === i)
    .map((n) => withDescription(found, make(words.slice(0, n))));
}

function quoted(request: string): string {
  return request.length > 60 ? `"${request.slice(0, 57)}…"` : `"${request}"`;
}

/** The edits worth trying, the one for the more common failure first. */
export function triggerFixes(feedback: MutatorFeedback): TriggerFix[] {
  const failing = (type: string) =>
    feedback.failing_cases.filter((c) => c.failed_checks.some((f) => f.type === type)).map(requestOf);
  const missed = failing('skill-used');
  const wrong = failing('not-skill-used');
  if (missed.length === 0 && wrong.length === 0) return [];
  const found = findDescription(feedback.incumbent.prompt);
  if (found === undefined) return [];
  const name = /^name:\s*(\S+)/m.exec(found.lines.slice(0, found.index + 1).join('\n'))?.[1] ?? '';
  const sentences = splitSentences(found.text);
  const ruledOut = stemsOf(sentences.filter((s) => NARROW.test(s) || /\bnot for\b/i.test(s)).join(' '));
  const covered = stemsOf(`${name} ${sentences.filter((s) => !/\bnot for\b/i.test(s)).join(' ')}`);

  const fixes: TriggerFix[] = [];
  if (missed.length > 0) {
    const words = rankWords(missed, new Set([...covered, ...ruledOut])).slice(0, WORDS);
    if (words.length > 0)
      fixes.push({
        action: `Adding "${words.join(', ')}" to the skill's description`,
        effect: `will make the agent use the skill for requests like ${quoted(missed[0] ?? '')} (missed in ${missed.length} of the failing train cases shown) without using it where it should not.`,
        prompts: shortened(
          found,
          (w) => extend(found.text, WIDEN, (l) => `Use it when a request mentions ${l}.`, w),
          words,
        ),
      });
  }
  if (wrong.length > 0) {
    const words = rankWords(wrong, new Set([...covered, ...ruledOut])).slice(0, WORDS);
    if (words.length > 0)
      fixes.push({
        action: `Ruling out "${words.join(', ')}" in the skill's description`,
        effect: `will stop the agent using the skill for requests like ${quoted(wrong[0] ?? '')} (used wrongly in ${wrong.length} of the failing train cases shown) while it still uses it where it should.`,
        prompts: shortened(
          found,
          (w) => extend(found.text, NARROW, (l) => `Not for requests about ${l}.`, w),
          words,
        ),
      });
  }
  if (wrong.length > missed.length) fixes.reverse();
  return fixes;
}
