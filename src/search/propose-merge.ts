/**
 * A merge candidate (docs/design/pareto-search.md): the edits two pool members made since their
 * nearest common ancestor, merged three-way per part (merge-parts.ts). A clean merge costs no model
 * call; where hunks overlap, the mutator resolves them seeing the ancestor's text and both versions
 * (merge-prompt.ts), its reply read strictly and sent back with the reason when unusable, a few
 * times at most. The merged prompt is held to the proposal rules (placeholders and keep blocks
 * of the ancestor, the length limit) before the loop evaluates it.
 */
import { splitPromptText } from '../experiment/part-texts.js';
import { findPlaceholders } from '../experiment/template.js';
import { findJsonObjects } from '../find-json.js';
import { keepBlocksOf, maxCharsFor } from '../loop/build-feedback.js';
import type { RejectedReply } from '../loop/mutator-prompt.js';
import { checkChangedText, type ParseProposalOptions } from '../loop/parse-proposal.js';
import { hashPrompt } from '../prompt-hash.js';
import { askMutator, MUTATOR_ATTEMPTS } from '../loop/propose.js';
import { countChars, cutText } from '../loop/text.js';
import {
  conflictSlot,
  MERGE_REQUEST_FORMAT,
  MergeReply,
  type MergeRequest,
} from '../protocol/merge-request.js';
import type { ModelClient } from '../providers/types.js';
import { buildMergeRequest } from './merge-prompt.js';
import { mergedWithSlots, mergePrompts, type PromptMerge, resolveMerge } from './merge-parts.js';

export interface MergeSide {
  /** The pool member, `p3`. */
  id: string;
  prompt: string;
  /** The hypothesis it was proposed with (null for p0, the baseline). */
  hypothesis: string | null;
}

export interface ProposeMergeInput {
  /** The iteration's candidate number (the mutator call's sample index). */
  candidate: number;
  /** The nearest common ancestor (pool.ts nearestCommonAncestor) and its prompt. */
  ancestor: { id: string; prompt: string };
  /** "Ours" and "theirs": the pair chooseMergePair returned, in that order. */
  a: MergeSide;
  b: MergeSide;
  /** Every prompt already tried in the run (hashPrompt), as for proposals. */
  triedHashes: ReadonlySet<string>;
  maxGrowth: number;
  /** Prompt parts, as for proposeCandidates: absent for one optimisable part. */
  parts?: ParseProposalOptions['parts'];
  client: ModelClient;
  signal?: AbortSignal;
}

import type { ResolvedConflict } from '../run/mutation-record.js';

export type { ResolvedConflict };

export type MergeAttempt =
  | {
      ok: true;
      candidate: number;
      prompt: string;
      hash: string;
      hypothesis: string;
      /** Overlapping hunks the mutator resolved (0: a clean merge). */
      conflicts: number;
      resolved: ResolvedConflict[];
      /** Mutator calls made (0 for a clean merge). */
      attempts: number;
    }
  | {
      ok: false;
      candidate: number;
      reason: 'duplicate' | 'invalid' | 'provider';
      message: string;
      conflicts: number;
      attempts: number;
    };

const HYPOTHESIS_CHARS = 300;

export async function proposeMerge(input: ProposeMergeInput): Promise<MergeAttempt> {
  const names = input.parts?.optimised ?? ['prompt'];
  const merge = mergePrompts(input.ancestor.prompt, input.a.prompt, input.b.prompt, names);
  const conflicts = merge.conflicts.length;
  const title = `Merge of ${input.a.id} and ${input.b.id} (common ancestor ${input.ancestor.id})`;
  const fail = (
    reason: 'duplicate' | 'invalid' | 'provider',
    message: string,
    attempts: number,
  ): MergeAttempt => ({
    ok: false,
    candidate: input.candidate,
    reason,
    message,
    conflicts,
    attempts,
  });

  if (conflicts === 0) {
    const prompt = resolveMerge(merge);
    const problem = checkMerged(prompt, input, names);
    if (problem !== undefined)
      return fail(problem.reason, `clean merge, no model call: ${problem.message}`, 0);
    const hypothesis = `${title}: ${describeSide(input.a)}; ${describeSide(input.b)}.`;
    return {
      ok: true,
      candidate: input.candidate,
      prompt,
      hash: hashPrompt(prompt),
      hypothesis,
      conflicts,
      resolved: [],
      attempts: 0,
    };
  }

  const request = mergeRequestOf(merge, input, names);
  const rejected: RejectedReply[] = [];
  let last: { reason: 'duplicate' | 'invalid'; message: string } = { reason: 'invalid', message: 'no reply' };
  for (let attempt = 1; attempt <= MUTATOR_ATTEMPTS; attempt++) {
    const asked = await askMutator(input.client, buildMergeRequest(request, rejected), {
      candidate: input.candidate,
      attempt,
      signal: input.signal,
    });
    if (!asked.ok) return fail('provider', asked.message, attempt);
    const read = readMergeReply(asked.reply, merge);
    const problem = read.ok
      ? checkMerged(read.prompt, input, names)
      : { reason: 'invalid' as const, message: read.message };
    if (read.ok && problem === undefined) {
      const resolved = merge.conflicts.map((c) => ({
        ...c,
        resolution: read.resolutions.get(c.id) as string,
      }));
      const s = conflicts === 1 ? '' : 's';
      return {
        ok: true,
        candidate: input.candidate,
        prompt: read.prompt,
        hash: hashPrompt(read.prompt),
        hypothesis: `${title}, ${conflicts} overlapping edit${s} resolved: ${read.hypothesis}`,
        conflicts,
        resolved,
        attempts: attempt,
      };
    }
    last = problem as { reason: 'duplicate' | 'invalid'; message: string };
    rejected.push({ reply: asked.reply, problem: last.message });
  }
  return fail(last.reason, last.message, MUTATOR_ATTEMPTS);
}

/** What the mutator is shown: the parts holding conflicts (merged text with slots, rules) and each conflict. */
function mergeRequestOf(
  merge: PromptMerge,
  input: ProposeMergeInput,
  names: readonly string[],
): MergeRequest {
  const withConflicts = new Set(merge.conflicts.map((c) => c.part));
  const limits = partLimits(input, names);
  const ancestor = splitPromptText(input.ancestor.prompt, names);
  return {
    format: MERGE_REQUEST_FORMAT,
    ancestor: input.ancestor.id,
    ours: { member: input.a.id, hypothesis: input.a.hypothesis ?? '' },
    theirs: { member: input.b.id, hypothesis: input.b.hypothesis ?? '' },
    parts: merge.parts
      .filter((p) => withConflicts.has(p.name))
      .map((p) => ({
        name: p.name,
        merged: mergedWithSlots(p, conflictSlot),
        placeholders: findPlaceholders(ancestor[p.name] as string),
        keep_blocks: keepBlocksOf(ancestor[p.name] as string),
        max_chars: limits.get(p.name)?.max as number,
      })),
    conflicts: merge.conflicts.map((c) => ({ ...c })),
  };
}

type ReadMerge =
  | { ok: true; prompt: string; hypothesis: string; resolutions: Map<number, string> }
  | { ok: false; message: string };

const REPLY_FORM = '{"hypothesis": "...", "resolutions": {"1": "..."}}';

/** The reply → the merged prompt, strictly: one object, every conflict answered, no other key. */
export function readMergeReply(reply: string, merge: PromptMerge): ReadMerge {
  const objects = findJsonObjects(reply);
  if (objects.length === 0)
    return { ok: false, message: `no JSON object was found in it; reply with ${REPLY_FORM}` };
  if (objects.length > 1)
    return {
      ok: false,
      message: `it holds ${objects.length} JSON objects; reply with exactly one, ${REPLY_FORM}`,
    };
  const parsed = MergeReply.safeParse(objects[0]);
  if (!parsed.success)
    return {
      ok: false,
      message: `"hypothesis" must be a non-empty string and "resolutions" must map each conflict number to its text; reply with ${REPLY_FORM}`,
    };
  const ids = merge.conflicts.map((c) => c.id);
  const unknown = Object.keys(parsed.data.resolutions).filter((key) => !ids.map(String).includes(key));
  if (unknown.length > 0)
    return {
      ok: false,
      message: `"resolutions" names ${unknown.map((k) => JSON.stringify(k)).join(', ')}, which ${unknown.length === 1 ? 'is not a conflict' : 'are not conflicts'}; the conflicts are ${ids.join(', ')}`,
    };
  const missing = ids.filter((id) => parsed.data.resolutions[String(id)] === undefined);
  if (missing.length > 0)
    return {
      ok: false,
      message: `"resolutions" has no text for conflict ${missing.join(', ')}; give the text of every conflict`,
    };
  // Whole lines replace the conflict: a final line break (models often add one) is not an extra blank line.
  const resolutions = new Map(
    ids.map((id) => [
      id,
      (parsed.data.resolutions[String(id)] as string).replace(/\r\n?/g, '\n').replace(/\n+$/, ''),
    ]),
  );
  for (const [id, text] of resolutions)
    if (text.split('\n').some((line) => /^\[\[conflict \d+\]\]$/.test(line.trim())))
      return {
        ok: false,
        message: `the text for conflict ${id} holds a [[conflict N]] line; write only the text that replaces it`,
      };
  return {
    ok: true,
    prompt: resolveMerge(merge, resolutions),
    hypothesis: parsed.data.hypothesis.trim(),
    resolutions,
  };
}

/**
 * The rules a merged prompt is held to, per part, against the ancestor's part: its placeholders
 * and keep blocks, and at most max_growth × the longer of the two members' texts of that part
 * (a merge holds both sides' additions). A prompt equal to a member, the ancestor or any prompt
 * tried before is a duplicate.
 */
function checkMerged(
  prompt: string,
  input: ProposeMergeInput,
  names: readonly string[],
): { reason: 'duplicate' | 'invalid'; message: string } | undefined {
  const hash = hashPrompt(prompt);
  for (const side of [input.a, input.b, input.ancestor])
    if (hashPrompt(side.prompt) === hash)
      return {
        reason: 'duplicate',
        message: `the merged prompt is ${side.id} unchanged; keep what each side changed`,
      };
  if (input.triedHashes.has(hash))
    return { reason: 'duplicate', message: 'the merged prompt repeats one already tried in this run' };
  const several = names.length > 1;
  const merged = splitPromptText(prompt, names);
  const ancestor = splitPromptText(input.ancestor.prompt, names);
  const limits = partLimits(input, names);
  for (const name of names) {
    const problem = checkChangedText(ancestor[name] as string, merged[name] as string, {
      several,
      known: several ? (input.parts?.placeholders ?? []) : [],
      maxGrowth: input.maxGrowth,
      lengthBase: { text: limits.get(name)?.longer as string, name: 'the longer member’s' },
    });
    if (problem !== undefined)
      return {
        reason: 'invalid',
        message: `the merged prompt breaks a rule${several ? ` in part \`${name}\`` : ''}: ${problem}`,
      };
  }
  return undefined;
}

/** Each part's length limit: max_growth × the longer of the two members' texts of it. */
function partLimits(
  input: ProposeMergeInput,
  names: readonly string[],
): Map<string, { longer: string; max: number }> {
  const a = splitPromptText(input.a.prompt, names);
  const b = splitPromptText(input.b.prompt, names);
  return new Map(
    names.map((name) => {
      const [x, y] = [a[name] as string, b[name] as string];
      const longer = countChars(x) >= countChars(y) ? x : y;
      return [name, { longer, max: maxCharsFor(longer, input.maxGrowth) }];
    }),
  );
}

function describeSide(side: MergeSide): string {
  return side.hypothesis === null || side.hypothesis.trim() === ''
    ? `${side.id} as it is`
    : `${side.id} ${JSON.stringify(cutText(side.hypothesis, HYPOTHESIS_CHARS))}`;
}
