/**
 * How the simulated agent decides whether to use a skill (docs/sim.md "Agent"), as a real agent
 * does from the skill's listing: its name and description against the task. The description's
 * content words that the task shares count for it (the name's words too); a sentence of the
 * description that rules uses out ("Not for …", "Do not use it for …") counts against: a task
 * sharing a word with it never uses the skill. It uses the skill when the task names it, or shares
 * TRIGGER_MATCHES words with it and none with what it rules out. Deterministic and pure, so an
 * edited description moves the score offline the way the words it adds or rules out say.
 */
import { parse } from 'yaml';
import { isRecord } from '../is-record.js';
import { contentWords, splitSentences } from '../providers/sim/text.js';

/** Words the task must share with the skill's listing for the agent to use it. */
export const TRIGGER_MATCHES = 2;

/** Words of a request or a description that say nothing about what the skill is for. */
const GENERIC = new Set(
  'use uses used using skill skills user users ask asks asked request requests help helps please want wants need needs like make makes thing things can able whenever'
    .split(' ')
    .map(stemWord),
);

/** A sentence that rules uses out: its words count against the skill. */
const RULES_OUT =
  /\b(?:not|never)\s+(?:use\s+(?:it|this(?:\s+skill)?)\s+)?(?:for|when|to|if)\b|\b(?:do not|don't|never) use\b|\bnot meant for\b/i;

export interface SkillListing {
  name: string;
  description: string;
}

export interface SkillChoice {
  use: boolean;
  /** The task's words the listing has. */
  matched: string[];
  /** The task's words the description rules out. */
  excluded: string[];
}

/** A SKILL.md's listing: the front matter's description, or the body's first paragraph without one. */
export function readSkillListing(name: string, text: string): SkillListing {
  const front = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  let description: string | undefined;
  if (front) {
    try {
      const data: unknown = parse(front[1] ?? '');
      if (isRecord(data) && typeof data['description'] === 'string') description = data['description'];
    } catch {
      // Front matter that is no YAML lists no description: the body stands for it.
    }
  }
  const body = front ? text.slice(front[0].length) : text;
  const paragraph = body.split(/\r?\n\s*\r?\n/).find((p) => p.trim() !== '') ?? '';
  return { name, description: (description ?? paragraph).trim() };
}

/** One stem for a word's forms: "tables" and "table", "creates", "created" and "creating" meet. */
export function stemWord(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

function stems(text: string): Set<string> {
  return new Set(
    contentWords(text.replace(/-/g, ' '))
      .map(stemWord)
      .filter((s) => !GENERIC.has(s)),
  );
}

export function chooseSkill(listing: SkillListing, task: string): SkillChoice {
  const sentences = splitSentences(listing.description);
  const ruledOut = sentences.filter((s) => RULES_OUT.test(s));
  const positive = stems([listing.name, ...sentences.filter((s) => !ruledOut.includes(s))].join('\n'));
  const negative = stems(ruledOut.join('\n'));
  const asked = [...stems(task)];
  const matched = asked.filter((s) => positive.has(s));
  const excluded = asked.filter((s) => negative.has(s));
  const named = new RegExp(`(?:^|[^a-z0-9-])${listing.name}(?:$|[^a-z0-9-])`, 'i').test(task);
  return { use: named || (excluded.length === 0 && matched.length >= TRIGGER_MATCHES), matched, excluded };
}
