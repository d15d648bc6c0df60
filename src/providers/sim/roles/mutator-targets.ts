/**
 * What the simulated mutator could fix, most common failure first: failing checks (by how
 * often they fail), then weak judge criteria, then failed expectations. Each target carries
 * the instruction that should fix it, a shorter wording for tight length budgets, and the
 * falsifiable claim that goes into the hypothesis. A check whose shown failures are all of one
 * kind of case (a prompt with a "Kind: {{kind}}" line), while a shown case of another kind
 * passes it, names that kind, so its instruction can be scoped to it.
 */
import type { MutatorFeedback } from '../../../protocol/mutation.js';
import type { Family } from '../instructions.js';
import type { Rng } from '../prng.js';
import { kindOf } from '../scopes.js';
import { escapeRegExp } from '../text.js';
import { checkTargets } from './check-targets.js';
import { familyFor } from './judge-heuristics.js';
import { lengthTarget, questionTarget, type Target } from './target.js';

export type { Target } from './target.js';

/** Criterion averages below this (1–5 scale) are worth an instruction. */
export const WEAK_CRITERION = 4;

const AUDIENCE_VAR = /audience|recipient|persona|customer|company|role|reader|prospect|name|client/i;

function criterionTarget(key: string, average: number, placeholders: string[]): Target[] {
  const effect = `will raise the judge's ${key} average above ${average.toFixed(1)}.`;
  const make = (family: Family, instruction: string, short: string): Target => ({
    family,
    instruction,
    short,
    action: `Adding "${short}"`,
    effect,
  });
  switch (familyFor(key, '', '')) {
    case 'subject':
      return [
        make('opening', "Begin with a short subject line ('Subject: …').", 'Begin with a subject line.'),
      ];
    case 'question':
      return [{ ...questionTarget(effect), action: 'Requiring a closing question' }];
    case 'length':
      return [{ ...lengthTarget(120, effect) }];
    case 'json':
      return [make('json', 'Reply with only a JSON object and no other text.', 'Reply with JSON only.')];
    case 'specificity': {
      const who = placeholders.find((p) => AUDIENCE_VAR.test(p));
      const specifics = make(
        'specifics',
        'Include one concrete number or example.',
        'Include one concrete number.',
      );
      if (!who) return [specifics];
      const item = `{{${who}}}`;
      return [
        { ...make('mention', `Mention ${item} in the first sentence.`, `Mention ${item}.`), item },
        specifics,
      ];
    }
    case 'tone':
      return [
        make('avoid', 'Avoid jargon and filler; keep the tone warm and direct.', 'No jargon; be direct.'),
      ];
    default:
      return [
        make('tone', 'Be concise and direct: short sentences, short paragraphs.', 'Be concise and direct.'),
      ];
  }
}

/** Replace a case's var values with their placeholders, so the instruction fits every case. */
function generalise(text: string, vars: Record<string, string>, placeholders: string[]): string {
  let result = text;
  for (const [key, value] of Object.entries(vars)) {
    if (!placeholders.includes(key) || value.trim().length < 3) continue;
    result = result.replace(new RegExp(escapeRegExp(value.trim()), 'gi'), `{{${key}}}`);
  }
  return result;
}

const LEADING_META =
  /^(?:it\s+|the (?:output|email|reply|response|answer)\s+)?(?:names?|mentions?|includes?|states?|gives?|offers?|contains?|uses?|references?|describes?|explains?|provides?|has|lists?|shows?)\s+/i;

function expectationTargets(feedback: MutatorFeedback): Target[] {
  const counts = new Map<string, { count: number; vars: Record<string, string> }>();
  for (const failing of feedback.failing_cases)
    for (const { text } of failing.failed_expectations) {
      const entry = counts.get(text) ?? { count: 0, vars: failing.vars };
      counts.set(text, { ...entry, count: entry.count + 1 });
    }
  const ranked = [...counts.entries()].sort((a, b) => b[1].count - a[1].count);
  return ranked.map(([text, { count, vars }]) => {
    const effect = `will make "${text}" pass in more cases (it fails in ${count} of the ${feedback.failing_cases.length} failing cases shown).`;
    if (/\bquestion\b/i.test(text)) return questionTarget(effect);
    if (/\bsubject line\b/i.test(text))
      return {
        family: 'opening',
        instruction: 'Begin with a subject line.',
        short: 'Begin with a subject line.',
        action: 'Requiring a subject line',
        effect,
      };
    const item = generalise(
      text.replace(LEADING_META, '').replace(/[.!]+$/, ''),
      vars,
      feedback.incumbent.placeholders,
    );
    return {
      family: 'mention',
      item,
      instruction: `Mention ${item}.`,
      short: `Mention ${item}.`,
      action: `Asking the model to mention ${item}`,
      effect,
    };
  });
}

/** The var a prompt's kind line fills ("Kind: {{kind}}" → kind), when the prompt has kinds. */
function kindVar(prompt: string): string | undefined {
  const kind = kindOf(prompt);
  return kind === undefined ? undefined : /^\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}$/.exec(kind)?.[1];
}

/**
 * The kind of case a check fails on, when the cases shown say so: every shown case failing it
 * is of that kind, and a shown case of another kind fails something else but not this.
 */
function kindOfFailures(
  feedback: MutatorFeedback,
  check: string,
  name: string | undefined,
): string | undefined {
  if (name === undefined) return undefined;
  const kindOfCase = (c: MutatorFeedback['failing_cases'][number]) => c.vars[name] ?? '';
  const failing = feedback.failing_cases.filter((c) => c.failed_checks.some((f) => f.name === check));
  const kinds = new Set(failing.map(kindOfCase));
  const [only] = kinds;
  if (kinds.size !== 1 || only === undefined || only === '') return undefined;
  const contrast = feedback.failing_cases.some((c) => kindOfCase(c) !== only && !failing.includes(c));
  return contrast ? only : undefined;
}

export function rankTargets(feedback: MutatorFeedback, rng: Rng): Target[] {
  const kindName = kindVar(feedback.incumbent.prompt);
  const checks = [...feedback.check_failures]
    .filter((check) => check.failed > 0)
    .sort((a, b) => b.failed - a.failed)
    .flatMap((check) => {
      const reasons = feedback.failing_cases.flatMap((c) =>
        c.failed_checks.filter((f) => f.name === check.name).map((f) => f.reason),
      );
      const kind = kindOfFailures(feedback, check.name, kindName);
      const targets = checkTargets(check, reasons, rng.fork(check.name));
      return kind === undefined ? targets : targets.map((target) => ({ ...target, kind }));
    });
  const criteria = Object.entries(feedback.incumbent.criteria)
    .filter(([, average]) => average < WEAK_CRITERION)
    .sort((a, b) => a[1] - b[1])
    .flatMap(([key, average]) => criterionTarget(key, average, feedback.incumbent.placeholders));
  return [...checks, ...criteria, ...expectationTargets(feedback)];
}
