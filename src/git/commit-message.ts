/**
 * Names and messages of the run's git objects, exactly as SPEC 9 shows them. Pure: the
 * same inputs always give the same bytes, so resume can match what an earlier process wrote.
 */

export const TRAILER = {
  run: 'Autoresearch-Run',
  iteration: 'Autoresearch-Iteration',
  score: 'Autoresearch-Score',
  /** Several optimised parts (SPEC 12): the parts the keep changed. */
  parts: 'Autoresearch-Parts',
} as const;

export function formatRunBranch(experiment: string, runId: string): string {
  return `autoresearch/${experiment}/${runId}`;
}

/** Scores are shown with 3 decimals; work in whole thousandths so the delta always adds up. */
function toMilli(score: number): number {
  return Math.round(score * 1000);
}

function formatMilli(milli: number, signed = false): string {
  const sign = milli < 0 ? '-' : signed ? '+' : '';
  const abs = Math.abs(milli);
  return `${sign}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, '0')}`;
}

export function formatScore(score: number): string {
  return formatMilli(toMilli(score));
}

/** Any whitespace (newlines included) becomes one space, so the hypothesis is one paragraph. */
export function collapseToParagraph(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface KeepMessageInput {
  experiment: string;
  runId: string;
  iteration: number;
  /** The incumbent's score before this keep. */
  from: number;
  /** The kept candidate's score. */
  to: number;
  hypothesis: string;
  /** Several optimised parts: the names of the parts this keep changes. */
  parts?: readonly string[];
}

export function formatKeepMessage(input: KeepMessageInput): string {
  const from = toMilli(input.from);
  const to = toMilli(input.to);
  const hypothesis = collapseToParagraph(input.hypothesis) || '(no hypothesis stated)';
  return [
    `autoresearch(${input.experiment}): iter ${input.iteration} ${formatMilli(from)} -> ${formatMilli(to)} (${formatMilli(to - from, true)})`,
    '',
    hypothesis,
    '',
    `${TRAILER.run}: ${input.runId}`,
    `${TRAILER.iteration}: ${input.iteration}`,
    `${TRAILER.score}: ${formatMilli(to)}`,
    ...(input.parts === undefined ? [] : [`${TRAILER.parts}: ${input.parts.join(', ')}`]),
    '',
  ].join('\n');
}

export interface BaselineMessageInput {
  experiment: string;
  runId: string;
  /** Whether HEAD has a different version of the prompt file or none at all. */
  reason: 'modified' | 'untracked';
}

export function formatBaselineMessage(input: BaselineMessageInput): string {
  const why =
    input.reason === 'modified'
      ? 'The prompt in the working tree differed from HEAD; this commit records the version the run starts from.'
      : 'The prompt was not in HEAD; this commit records the version the run starts from.';
  return [
    `autoresearch(${input.experiment}): baseline prompt for run ${input.runId}`,
    '',
    why,
    '',
    `${TRAILER.run}: ${input.runId}`,
    `${TRAILER.iteration}: 0`,
    '',
  ].join('\n');
}
