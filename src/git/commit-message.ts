/**
 * Names and messages of the run's git objects, exactly as docs/design/git-layout.md shows them.
 * Pure: the same inputs always give the same bytes, so resume can match what an earlier process
 * wrote.
 */

export const TRAILER = {
  run: 'Autoresearch-Run',
  iteration: 'Autoresearch-Iteration',
  score: 'Autoresearch-Score',
  /** Several optimised parts (docs/design/prompt-shapes.md): the parts the keep changed. */
  parts: 'Autoresearch-Parts',
  /** A pareto run (docs/design/pareto-search.md): the pool member a keep or a pool commit holds. */
  pool: 'Autoresearch-Pool',
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
  /** A pareto run: the pool member that became the best (`p5`). */
  member?: string;
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
    ...(input.member === undefined ? [] : [`${TRAILER.pool}: ${input.member}`]),
    ...(input.parts === undefined ? [] : [`${TRAILER.parts}: ${input.parts.join(', ')}`]),
    '',
  ].join('\n');
}

export interface PoolMessageInput {
  experiment: string;
  runId: string;
  member: string;
  iteration: number;
  kind: 'seed' | 'mutation' | 'merge';
  /** The parent members (none for the seed, two for a merge). */
  parents: readonly string[];
  /** The member's train score, when it has one. */
  train: number | null;
  /** The proposal's hypothesis; null for the seed. */
  hypothesis: string | null;
}

/**
 * The message of a pool member's commit (docs/design/pareto-search.md): which member, made how, at
 * which iteration.
 */
export function formatPoolMessage(input: PoolMessageInput): string {
  const how =
    input.kind === 'seed'
      ? 'the baseline'
      : input.kind === 'merge'
        ? `merge of ${input.parents.join(' and ')}`
        : `from ${input.parents.join(', ')}`;
  const score = input.train === null ? '' : ` ${formatScore(input.train)}`;
  const hypothesis =
    input.kind === 'seed'
      ? 'The prompt the run started from.'
      : collapseToParagraph(input.hypothesis ?? '') || '(no hypothesis stated)';
  return [
    `autoresearch(${input.experiment}): pool ${input.member}, iter ${input.iteration}, ${how}${score}`,
    '',
    hypothesis,
    '',
    `${TRAILER.run}: ${input.runId}`,
    `${TRAILER.iteration}: ${input.iteration}`,
    ...(input.train === null ? [] : [`${TRAILER.score}: ${formatScore(input.train)}`]),
    `${TRAILER.pool}: ${input.member}`,
    '',
  ].join('\n');
}

export interface BaselineMessageInput {
  experiment: string;
  runId: string;
  /** Whether HEAD has a different version of the prompt file or none at all. */
  reason: 'modified' | 'untracked';
  /** `run --from`: where the starting prompt came from (`the best of run …`), said instead of the reason. */
  startsFrom?: string;
}

export function formatBaselineMessage(input: BaselineMessageInput): string {
  const why =
    input.startsFrom !== undefined
      ? `The run starts from ${input.startsFrom} (run --from); this commit records that prompt.`
      : input.reason === 'modified'
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
