/**
 * The mutator's reply → a proposal, or a reason it cannot be used (issue 5, item 2). The
 * request asks for exactly one JSON object, optionally in one ```json fence; on reading we
 * tolerate prose and fences around it (models add them and a retry costs a call) but insist
 * on the count: a reply holding two JSON objects is ambiguous and invalid. Every message is
 * written to be sent back to the mutator as is, so the retry knows what to fix.
 */
import { extractKeepBlocks, findPlaceholders } from '../experiment/template.js';
import { MutatorReply } from '../protocol/mutation.js';
import { maxCharsFor } from './build-feedback.js';
import { findJsonObjects } from '../find-json.js';
import { PROMPT_LABEL } from './mutator-prompt.js';
import { hashPrompt } from './prompt-hash.js';
import { countChars, cutText, toOneLine } from './text.js';

export interface ParseProposalOptions {
  incumbent: string;
  /** hashPrompt() of every prompt already proposed in this run (evaluated or not). */
  triedHashes: ReadonlySet<string>;
  maxGrowth: number;
}

export type ProposalResult =
  | { ok: true; hypothesis: string; prompt: string; hash: string }
  | { ok: false; reason: 'duplicate' | 'invalid'; message: string };

export function parseProposal(reply: string, options: ParseProposalOptions): ProposalResult {
  const objects = findJsonObjects(reply);
  if (objects.length === 0)
    return invalid('no JSON object was found in it; reply with {"hypothesis": "...", "prompt": "..."}');
  if (objects.length > 1)
    return invalid(
      `it holds ${objects.length} JSON objects; reply with exactly one, holding the whole prompt`,
    );
  const parsed = MutatorReply.safeParse(objects[0]);
  if (!parsed.success) return invalid(describeShapeProblem(parsed.error.issues));
  const { prompt } = parsed.data;
  const hypothesis = parsed.data.hypothesis.trim();

  const hash = hashPrompt(prompt);
  if (hash === hashPrompt(options.incumbent))
    return duplicate('your prompt is the current prompt unchanged; make one change to it');
  if (options.triedHashes.has(hash))
    return duplicate('your prompt repeats one already tried in this run; propose a different change');

  const problem =
    checkMarkers(prompt) ??
    checkPlaceholders(options.incumbent, prompt) ??
    checkKeepBlocks(options.incumbent, prompt) ??
    checkLength(options.incumbent, prompt, options.maxGrowth);
  if (problem !== undefined) return invalid(problem);
  return { ok: true, hypothesis, prompt, hash };
}

function invalid(message: string): ProposalResult {
  return { ok: false, reason: 'invalid', message };
}

function duplicate(message: string): ProposalResult {
  return { ok: false, reason: 'duplicate', message };
}

function describeShapeProblem(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const fields = [...new Set(issues.map((issue) => String(issue.path[0] ?? '')))].filter((f) => f !== '');
  const named = fields.length > 0 ? fields.map((f) => `"${f}"`).join(' and ') : 'the object';
  return `${named} must be a non-empty string; reply with {"hypothesis": "...", "prompt": "..."}`;
}

function checkMarkers(prompt: string): string | undefined {
  if (prompt.includes(`⟦BEGIN ${PROMPT_LABEL} `) || prompt.includes(`⟦END ${PROMPT_LABEL} `))
    return 'your prompt contains the ⟦BEGIN/END PROMPT⟧ markers; send only the prompt text itself';
  return undefined;
}

function checkPlaceholders(incumbent: string, prompt: string): string | undefined {
  const before = findPlaceholders(incumbent);
  const after = new Set(findPlaceholders(prompt));
  const dropped = before.filter((name) => !after.has(name));
  if (dropped.length > 0)
    return `your prompt dropped ${listPlaceholders(dropped)}; every placeholder of the current prompt must stay, since the test cases fill them`;
  const added = [...after].filter((name) => !before.includes(name));
  if (added.length > 0)
    return `your prompt adds ${listPlaceholders(added)}, which no test case has a value for; use only ${before.length > 0 ? listPlaceholders(before) : 'no placeholders'}`;
  return undefined;
}

function listPlaceholders(names: readonly string[]): string {
  return names.map((name) => `{{${name}}}`).join(', ');
}

// The same blocks in any order: reordering sections is a legitimate change, editing a
// protected text is not, and neither is protecting new text (only the user does that).
function checkKeepBlocks(incumbent: string, prompt: string): string | undefined {
  const proposed = extractKeepBlocks(prompt);
  if (proposed.problems.length > 0)
    return `the <!-- keep --> markers in your prompt are broken (${proposed.problems.join('; ')}); copy each keep block exactly, markers included`;
  const remaining = [...proposed.blocks];
  for (const block of extractKeepBlocks(incumbent).blocks) {
    const at = remaining.indexOf(block);
    if (at < 0)
      return `your prompt changed or removed the keep block "${preview(block)}"; copy it exactly, from <!-- keep --> to <!-- /keep -->`;
    remaining.splice(at, 1);
  }
  const extra = remaining[0];
  if (extra !== undefined)
    return `your prompt adds a keep block ("${preview(extra)}"); only the user marks text as protected, so remove those markers`;
  return undefined;
}

function checkLength(incumbent: string, prompt: string, maxGrowth: number): string | undefined {
  const max = maxCharsFor(incumbent, maxGrowth);
  const chars = countChars(prompt);
  if (chars <= max) return undefined;
  return `your prompt has ${chars} characters and the limit is ${max} (${maxGrowth} × the current ${countChars(incumbent)}); make it shorter`;
}

function preview(text: string): string {
  return cutText(toOneLine(text), 60);
}
