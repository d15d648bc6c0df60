/**
 * The mutator's reply → a proposal, or a reason it cannot be used. The
 * request asks for exactly one JSON object, optionally in one ```json fence; on reading we
 * tolerate prose and fences around it (models add them and a retry costs a call) but insist
 * on the count: a reply holding two JSON objects is ambiguous and invalid. Every message is
 * written to be sent back to the mutator as is, so the retry knows what to fix.
 *
 * With several optimisable parts (docs/design/prompt-shapes.md) the reply names the parts it
 * changes in `edits`; the rules hold per part, and each message names the part it is about. With
 * one part, `{"hypothesis", "prompt"}` is the form (and `edits` naming that part is read the same
 * way).
 */
import { extractKeepBlocks, findPlaceholders } from '../experiment/template.js';
import { findMarkerLine, joinPartTexts, type PartTexts, splitPromptText } from '../experiment/part-texts.js';
import { MutatorEditsReply, MutatorReply } from '../protocol/mutation.js';
import { maxCharsFor } from './build-feedback.js';
import { findJsonObjects } from '../find-json.js';
import { PROMPT_LABEL } from './mutator-prompt.js';
import { hashPrompt } from '../prompt-hash.js';
import { countChars, cutText, toOneLine } from './text.js';

export interface ParseProposalOptions {
  incumbent: string;
  /** hashPrompt() of every prompt already proposed in this run (evaluated or not). */
  triedHashes: ReadonlySet<string>;
  maxGrowth: number;
  /**
   * Prompt parts: the names of the parts the reply may change (in request order) and of the
   * fixed ones, and the placeholders of every part: with several optimisable parts each part
   * keeps its own and may take up any of these, since every case fills them.
   */
  parts?: { optimised: readonly string[]; fixed: readonly string[]; placeholders: readonly string[] };
}

export type ProposalResult =
  | { ok: true; hypothesis: string; prompt: string; hash: string }
  | { ok: false; reason: 'duplicate' | 'invalid'; message: string };

export function parseProposal(reply: string, options: ParseProposalOptions): ProposalResult {
  const names = options.parts?.optimised ?? [];
  const several = names.length > 1;
  const form = several ? PARTS_FORM : SINGLE_FORM;
  const objects = findJsonObjects(reply);
  if (objects.length === 0) return invalid(`no JSON object was found in it; reply with ${form}`);
  if (objects.length > 1)
    return invalid(
      `it holds ${objects.length} JSON objects; reply with exactly one, holding the whole ${several ? 'text of each part you change' : 'prompt'}`,
    );
  const read = readReply(objects[0], options);
  if (!read.ok) return invalid(read.message);
  const { prompt, changed } = read;
  const hypothesis = read.hypothesis.trim();

  const hash = hashPrompt(prompt);
  if (hash === hashPrompt(options.incumbent))
    return duplicate('your prompt is the current prompt unchanged; make one change to it');
  if (options.triedHashes.has(hash))
    return duplicate('your prompt repeats one already tried in this run; propose a different change');

  // The edited texts as sent (a marker line inside one would split the joined prompt wrongly).
  const before = several ? splitPromptText(options.incumbent, names) : { '': options.incumbent };
  const after = several ? changed : { '': prompt };
  for (const [name, text] of Object.entries(after)) {
    const problem = checkChangedText(before[name] as string, text, {
      several,
      known: several ? (options.parts?.placeholders ?? []) : [],
      maxGrowth: options.maxGrowth,
    });
    if (problem !== undefined) return invalid(several ? `in part \`${name}\`: ${problem}` : problem);
  }
  return { ok: true, hypothesis, prompt, hash };
}

/** What a changed text (one part, or the single prompt) is held to against the text it replaces. */
export interface TextRules {
  /** Several optimisable parts: no part-marker line, and the `known` placeholders may be taken up. */
  several: boolean;
  known: readonly string[];
  maxGrowth: number;
  /** The text whose length × max_growth is the limit, and how a message names it; default the text replaced. */
  lengthBase?: { text: string; name: string };
}

/** The first rule `text` breaks (markers, placeholders, keep blocks, length), as a message for the mutator. */
export function checkChangedText(old: string, text: string, rules: TextRules): string | undefined {
  const base = rules.lengthBase ?? { text: old, name: 'the current' };
  return (
    checkMarkers(text, rules.several) ??
    checkPlaceholders(old, text, rules.known) ??
    checkKeepBlocks(old, text) ??
    checkLength(base, text, rules.maxGrowth)
  );
}

const SINGLE_FORM = '{"hypothesis": "...", "prompt": "..."}';
const PARTS_FORM = '{"hypothesis": "...", "edits": {"<part name>": "<its whole new text>"}}';

type ReadReply =
  | { ok: true; hypothesis: string; prompt: string; changed: PartTexts }
  | { ok: false; message: string };

/** The reply's new prompt (the parts document with several parts) and the parts it names. */
function readReply(value: unknown, options: ParseProposalOptions): ReadReply {
  const names = options.parts?.optimised ?? [];
  const several = names.length > 1;
  const edits = MutatorEditsReply.safeParse(value);
  if (edits.success && (several || !('prompt' in (value as object)))) {
    const problem = checkEditNames(Object.keys(edits.data.edits), options);
    if (problem !== undefined) return { ok: false, message: problem };
    if (!several)
      return {
        ok: true,
        hypothesis: edits.data.hypothesis,
        prompt: Object.values(edits.data.edits)[0] as string,
        changed: {},
      };
    const texts: PartTexts = splitPromptText(options.incumbent, names);
    const changed: PartTexts = {};
    for (const name of names) {
      const text = edits.data.edits[name];
      if (text !== undefined) texts[name] = changed[name] = text;
    }
    return { ok: true, hypothesis: edits.data.hypothesis, prompt: joinPartTexts(texts), changed };
  }
  if (several) {
    const message =
      isObject(value) && 'prompt' in value && !('edits' in value)
        ? `this prompt has ${names.length} parts you may change (${listNames(names)}), so name each one you change: reply with ${PARTS_FORM}`
        : describePartsShapeProblem(value);
    return { ok: false, message };
  }
  const parsed = MutatorReply.safeParse(value);
  if (!parsed.success) return { ok: false, message: describeShapeProblem(parsed.error.issues) };
  return { ok: true, hypothesis: parsed.data.hypothesis, prompt: parsed.data.prompt, changed: {} };
}

function checkEditNames(edited: readonly string[], options: ParseProposalOptions): string | undefined {
  const names = options.parts?.optimised ?? ['prompt'];
  const fixed = options.parts?.fixed ?? [];
  if (edited.length === 0) return '"edits" names no part; name each part you change with its whole new text';
  for (const name of edited) {
    if (fixed.includes(name))
      return `\`${name}\` is a fixed part: it is sent as it is and cannot be edited; change only ${listNames(names)}`;
    if (!names.includes(name))
      return `\`${name}\` is not a part of this prompt; the parts you may change are ${listNames(names)}`;
  }
  return undefined;
}

function listNames(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(', ');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  return `${named} must be a non-empty string; reply with ${SINGLE_FORM}`;
}

function describePartsShapeProblem(value: unknown): string {
  const object = isObject(value) ? value : {};
  const edits = object['edits'];
  if (!nonEmpty(object['hypothesis']))
    return `"hypothesis" must be a non-empty string; reply with ${PARTS_FORM}`;
  if (!isObject(edits) || Object.values(edits).some((t) => typeof t !== 'string' || t === ''))
    return `"edits" must map part names to non-empty strings; reply with ${PARTS_FORM}`;
  return `the object must be ${PARTS_FORM}`;
}

function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

function checkMarkers(prompt: string, several: boolean): string | undefined {
  if (prompt.includes(`⟦BEGIN ${PROMPT_LABEL} `) || prompt.includes(`⟦END ${PROMPT_LABEL} `))
    return 'your prompt contains the ⟦BEGIN/END PROMPT⟧ markers; send only the prompt text itself';
  const marker = several ? findMarkerLine(prompt) : undefined;
  if (marker !== undefined)
    return `it holds the line "${marker}", which marks where a part begins; send each part's text alone, under its name in "edits"`;
  return undefined;
}

/** `known`: with several optimisable parts, the placeholders of every part (every case fills them). */
function checkPlaceholders(incumbent: string, prompt: string, known: readonly string[]): string | undefined {
  const before = findPlaceholders(incumbent);
  const after = new Set(findPlaceholders(prompt));
  const dropped = before.filter((name) => !after.has(name));
  if (dropped.length > 0)
    return `your prompt dropped ${listPlaceholders(dropped)}; every placeholder of the current prompt must stay, since the test cases fill them`;
  const usable = [...new Set([...before, ...known])];
  const added = [...after].filter((name) => !usable.includes(name));
  if (added.length > 0)
    return `your prompt adds ${listPlaceholders(added)}, which no test case has a value for; use only ${usable.length > 0 ? listPlaceholders(usable) : 'no placeholders'}`;
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

function checkLength(
  base: { text: string; name: string },
  prompt: string,
  maxGrowth: number,
): string | undefined {
  const max = maxCharsFor(base.text, maxGrowth);
  const chars = countChars(prompt);
  if (chars <= max) return undefined;
  return `your prompt has ${chars} characters and the limit is ${max} (${maxGrowth} × ${base.name} ${countChars(base.text)}); make it shorter`;
}

function preview(text: string): string {
  return cutText(toOneLine(text), 60);
}
