/**
 * The simulated mutator: reads the feedback block and proposes one change with a falsifiable
 * hypothesis. Focused strategy: one instruction aimed at the most common failure (or a firmer
 * restatement of one the prompt already has). Bold strategy: regroup all instructions as firm
 * rules. Failing skill-trigger checks are fixed in the skill's description instead, in either
 * mode (mutator-triggers.ts). About one proposal in five is a useless or harmful tweak, so the
 * loop sees real discards.
 */
import type { MutatorFeedback, MutatorReply } from '../../../protocol/mutation.js';
import { type Family, type Instructions, parseInstructions, statedFamilies } from '../instructions.js';
import type { Rng } from '../prng.js';
import { pluralKind } from '../scopes.js';
import { lowerFirst, normaliseSpace } from '../text.js';
import {
  appendLine,
  insertForKind,
  instructionLines,
  isValidEdit,
  removeLine,
  replaceLine,
  restructure,
  toLines,
} from './mutator-edit.js';
import { rankTargets, type Target } from './mutator-targets.js';
import { triggerFixes } from './mutator-triggers.js';

/** Share of proposals that are a useless or harmful tweak instead of a fix. */
export const TWEAK_PROBABILITY = 0.2;
/** Share of focused proposals that go for the second most common failure, so candidates differ. */
export const SECOND_TARGET_PROBABILITY = 0.25;
/** Share of new instructions aimed at one kind of case that are scoped to that kind. */
export const SCOPE_PROBABILITY = 0.5;

const USELESS = [
  'Make the message memorable.',
  'Write with energy and confidence.',
  'Show genuine enthusiasm.',
  'Think carefully before writing.',
  'Use vivid language.',
];

const FAMILY_LABELS: Record<Family, string> = {
  length: 'length limit',
  sentences: 'sentence limit',
  opening: 'required opening',
  mention: 'instruction to mention it',
  avoid: 'banned words',
  question: 'closing question',
  bullets: 'bullet format',
  json: 'JSON format',
  tone: 'tone instruction',
  specifics: 'request for concrete details',
  file: 'file to write',
  dates: 'date format',
  codes: 'currency code rule',
  numbers: 'number format',
  items: 'rule to list every line item',
  'tool-results': 'rule to take ids from the tool results',
  verbatim: 'rule to copy names exactly',
};

interface Proposal extends MutatorReply {
  action: string;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}'{}-]+/gu) ?? [];
}

/**
 * Whether a hypothesis begins with this action, its words in any order: "Banning synergy,
 * leverage, …" and "Banning leverage, synergy, …" are one attempt. A hypothesis cut short (the
 * feedback's `tried` cuts long ones) matches an action it is the start of.
 */
export function beginsWithAction(hypothesis: string, action: string): boolean {
  const text = normaliseSpace(hypothesis);
  if (text.endsWith('…') && normaliseSpace(action).startsWith(text.slice(0, -1))) return true;
  const wanted = wordsOf(action);
  const opening = wordsOf(text).slice(0, wanted.length);
  return opening.length === wanted.length && opening.sort().join(' ') === [...wanted].sort().join(' ');
}

/** Whether the action was already tried in this run: in the history shown, or elsewhere (`tried`). */
function repeatsHistory(action: string, feedback: MutatorFeedback): boolean {
  const hypotheses = [...feedback.history.map((attempt) => attempt.hypothesis), ...(feedback.tried ?? [])];
  return hypotheses.some((hypothesis) => beginsWithAction(hypothesis, action));
}

function valid(feedback: MutatorFeedback, prompt: string): boolean {
  const { incumbent, max_chars } = feedback;
  return isValidEdit(prompt, incumbent.prompt, incumbent.keep_blocks, incumbent.placeholders, max_chars);
}

function propose(
  feedback: MutatorFeedback,
  action: string,
  effect: string,
  prompts: string[],
): Proposal | undefined {
  if (repeatsHistory(action, feedback)) return undefined;
  const prompt = prompts.find((candidate) => valid(feedback, candidate));
  return prompt === undefined ? undefined : { action, hypothesis: `${action} ${effect}`, prompt };
}

function alreadyStated(target: Target, stated: Instructions): boolean {
  if (target.family === 'mention')
    return stated.mentions.some((m) => normaliseSpace(m.value) === normaliseSpace(target.item ?? ''));
  if (target.family === 'file') return stated.files.some((f) => f.value === target.item);
  if (target.family === 'avoid' && target.words)
    return target.words.every((word) => stated.avoid?.value.includes(word));
  return statedFamilies(stated).has(target.family);
}

function isFirm(target: Target, stated: Instructions): boolean {
  if (target.family === 'mention')
    return stated.mentions.some(
      (m) => m.firm && normaliseSpace(m.value) === normaliseSpace(target.item ?? ''),
    );
  if (target.family === 'file') return stated.files.some((f) => f.firm && f.value === target.item);
  return statedFamilies(stated).get(target.family) === true;
}

/** The instruction scoped to the one kind of case its failures are: "For setup requests, write …". */
function scopedFix(target: Target, kind: string, feedback: MutatorFeedback): Proposal | undefined {
  const prompt = feedback.incumbent.prompt;
  const scope = pluralKind(kind);
  return propose(
    feedback,
    `Scoping "${target.short}" to ${scope}`,
    target.effect,
    [target.instruction, target.short].map((line) =>
      insertForKind(prompt, kind, `For ${scope}, ${lowerFirst(line)}`),
    ),
  );
}

/**
 * A new instruction, or a firmer restatement of one the prompt states but the model keeps
 * ignoring. A new instruction whose failures are all of one kind is scoped to that kind with
 * probability SCOPE_PROBABILITY. The prompt is read without scopes: a family stated for one
 * kind counts as stated, so the other kind gets a restatement, never a rule of its own.
 */
function fixFor(target: Target, feedback: MutatorFeedback, rng: Rng): Proposal | undefined {
  const prompt = feedback.incumbent.prompt;
  const stated = parseInstructions(prompt);
  if (!alreadyStated(target, stated)) {
    const scoped =
      target.kind !== undefined && rng.fork('scope').chance(SCOPE_PROBABILITY)
        ? scopedFix(target, target.kind, feedback)
        : undefined;
    if (scoped) return scoped;
    return propose(
      feedback,
      target.action,
      target.effect,
      [target.instruction, target.short].map((line) => appendLine(prompt, line)),
    );
  }
  if (isFirm(target, stated)) return undefined;
  const firm = `Important: ${lowerFirst(target.instruction)}`;
  const lines = toLines(prompt);
  const own = instructionLines(lines).find((i) => {
    const line = parseInstructions(lines[i]?.text ?? '');
    return alreadyStated(target, line) && statedFamilies(line).size === 1;
  });
  const edits =
    own === undefined
      ? [appendLine(prompt, firm)]
      : [replaceLine(prompt, own, firm), appendLine(prompt, firm)];
  const action = `Restating the ${FAMILY_LABELS[target.family]} as a hard rule`;
  return propose(feedback, action, `("${target.short}") ${target.effect}`, edits);
}

function tweak(feedback: MutatorFeedback, rng: Rng): Proposal | undefined {
  const prompt = feedback.incumbent.prompt;
  const removable = instructionLines(toLines(prompt));
  if (removable.length > 0 && rng.chance(0.5)) {
    const index = rng.pick(removable);
    const line = toLines(prompt)[index]?.text.trim() ?? '';
    const proposal = propose(
      feedback,
      `Dropping the line "${line}"`,
      'will let the model write more naturally and raise the judge score without failing any check.',
      [removeLine(prompt, index)],
    );
    if (proposal) return proposal;
  }
  for (const line of rng.shuffle(USELESS)) {
    if (prompt.includes(line)) continue;
    const proposal = propose(
      feedback,
      `Adding "${line}"`,
      "will raise the judge's average by at least 0.2 without changing any check result.",
      [appendLine(prompt, line)],
    );
    if (proposal) return proposal;
  }
  return undefined;
}

function focused(feedback: MutatorFeedback, targets: Target[], rng: Rng): Proposal | undefined {
  const ordered =
    targets.length > 1 && rng.chance(SECOND_TARGET_PROBABILITY)
      ? [targets[1] as Target, targets[0] as Target, ...targets.slice(2)]
      : targets;
  for (const target of ordered) {
    const proposal = fixFor(target, feedback, rng);
    if (proposal) return proposal;
  }
  return undefined;
}

function bold(feedback: MutatorFeedback, targets: Target[], rng: Rng): Proposal | undefined {
  const prompt = feedback.incumbent.prompt;
  const stated = parseInstructions(prompt);
  const fresh = targets.find((t) => !alreadyStated(t, stated));
  const effect = `will make the model follow them more reliably and raise the train score${fresh ? ` (${fresh.effect.replace(/^will /, 'it ').replace(/\.$/, '')})` : ''}.`;
  // The paragraph form is shorter, so it is the fallback when the list does not fit the budget.
  const styles = rng.chance(0.5) ? (['list', 'paragraph'] as const) : (['paragraph'] as const);
  for (const style of styles) {
    const shape = style === 'list' ? 'one numbered list of firm rules' : 'one "Important:" paragraph';
    const action = `Regrouping the instructions into ${shape}${fresh ? ` with "${fresh.short}" added` : ''}`;
    const edits = fresh
      ? [restructure(prompt, fresh.instruction, style), restructure(prompt, fresh.short, style)]
      : [restructure(prompt, undefined, style)];
    const proposal = propose(feedback, action, effect, edits);
    if (proposal) return proposal;
  }
  return undefined;
}

/**
 * A skill-trigger experiment's failures are fixed in the skill's description (mutator-triggers.ts);
 * now and then the less common failure goes first, so candidates differ.
 */
function triggerEdit(feedback: MutatorFeedback, rng: Rng): Proposal | undefined {
  const fixes = triggerFixes(feedback);
  if (fixes.length > 1 && rng.chance(SECOND_TARGET_PROBABILITY)) fixes.reverse();
  for (const fix of fixes) {
    const proposal = propose(feedback, fix.action, fix.effect, fix.prompts);
    if (proposal) return proposal;
  }
  return undefined;
}

export function proposeMutation(feedback: MutatorFeedback, rng: Rng): MutatorReply {
  const targets = rankTargets(feedback, rng.fork('targets'));
  const attempt =
    (rng.fork('tweak').chance(TWEAK_PROBABILITY) ? tweak(feedback, rng.fork('tweak-pick')) : undefined) ??
    triggerEdit(feedback, rng.fork('triggers')) ??
    (feedback.strategy === 'bold' ? bold(feedback, targets, rng.fork('bold')) : undefined) ??
    focused(feedback, targets, rng.fork('focused')) ??
    tweak(feedback, rng.fork('fallback'));
  if (attempt) return { hypothesis: attempt.hypothesis, prompt: attempt.prompt };
  // Nothing valid fits the budget: propose the incumbent itself, which the loop records as a duplicate.
  return {
    hypothesis:
      'No further change fits the length budget; keeping the prompt as it is will leave the score unchanged.',
    prompt: feedback.incumbent.prompt,
  };
}
