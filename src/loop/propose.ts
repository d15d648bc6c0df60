/**
 * Propose: ask the mutator for `candidates` independent revisions of the incumbent. Each
 * reply is validated (placeholders, keep blocks, growth, duplicates); an unusable reply is
 * sent back with the reason and asked again, a few times at most.
 */
import type { MutatorFeedback } from '../protocol/mutation.js';
import { type ModelClient, ProviderError } from '../providers/types.js';
import { buildMutatorRequest, type MutatorRequest, type RejectedReply } from './mutator-prompt.js';
import { type ParseProposalOptions, parseProposal } from './parse-proposal.js';

export const MUTATOR_ATTEMPTS = 3;

import type { Proposal, ProposalAttempt } from '../run/mutation-record.js';

export type { Proposal, ProposalAttempt };

export interface ProposeInput {
  feedback: MutatorFeedback;
  incumbent: string;
  triedHashes: ReadonlySet<string>;
  count: number;
  /**
   * The number of the first candidate (default 0): the proposals are candidates first … first +
   * count − 1, each number also the call's sample index. Pareto proposes each candidate from its
   * own parent, one call to this function per candidate: the numbers keep two candidates drawn
   * from the same parent from asking the very same request (and getting one cached reply).
   */
  firstCandidate?: number;
  maxGrowth: number;
  /** Prompt parts: which parts the reply may change and which are fixed (parse-proposal.ts). */
  parts?: ParseProposalOptions['parts'];
  client: ModelClient;
  signal?: AbortSignal;
}

export async function proposeCandidates(input: ProposeInput): Promise<ProposalAttempt[]> {
  // Hashes claimed by this iteration's own candidates, so two proposals never evaluate the same prompt.
  const claimed = new Set<string>();
  const first = input.firstCandidate ?? 0;
  const attempts = Array.from({ length: input.count }, (_, i) => proposeOne(input, first + i, claimed));
  return Promise.all(attempts);
}

/**
 * One proposal as candidate `candidate` (its sample index). `claimed` holds the hashes other
 * proposals of the same iteration took; the pareto search asks each candidate with its own
 * parent's feedback and passes one set to all of them.
 */
export async function proposeOne(
  input: Omit<ProposeInput, 'count'>,
  candidate: number,
  claimed: Set<string>,
): Promise<ProposalAttempt> {
  const rejected: RejectedReply[] = [];
  let last: { reason: 'duplicate' | 'invalid'; message: string } = { reason: 'invalid', message: 'no reply' };
  for (let attempt = 1; attempt <= MUTATOR_ATTEMPTS; attempt++) {
    const request = buildMutatorRequest(input.feedback, rejected);
    const asked = await askMutator(input.client, request, { candidate, attempt, signal: input.signal });
    if (!asked.ok)
      return { ok: false, candidate, reason: 'provider', message: asked.message, attempts: attempt };
    const reply = asked.reply;
    const tried = new Set([...input.triedHashes, ...claimed]);
    const parsed = parseProposal(reply, {
      incumbent: input.incumbent,
      triedHashes: tried,
      maxGrowth: input.maxGrowth,
      ...(input.parts ? { parts: input.parts } : {}),
    });
    if (parsed.ok) {
      claimed.add(parsed.hash);
      return {
        ok: true,
        proposal: { candidate, hypothesis: parsed.hypothesis, prompt: parsed.prompt, hash: parsed.hash },
        attempts: attempt,
      };
    }
    last = { reason: parsed.reason, message: parsed.message };
    rejected.push({ reply, problem: parsed.message });
  }
  return { ok: false, candidate, ...last, attempts: MUTATOR_ATTEMPTS };
}

/**
 * One call to the mutator (a proposal or a merge's conflicts): the mutator entry's settings,
 * `candidate` as the sample index. A failed call is data (`ok: false`), except one that stops
 * the run or was aborted, which is thrown.
 */
export async function askMutator(
  client: ModelClient,
  request: MutatorRequest,
  options: { candidate: number; attempt: number; signal?: AbortSignal | undefined },
): Promise<{ ok: true; reply: string } | { ok: false; message: string }> {
  const { entry } = client;
  try {
    const result = await client.complete({
      system: request.system,
      messages: request.messages,
      ...(entry.temperature === undefined ? {} : { temperature: entry.temperature }),
      maxTokens: entry.max_tokens ?? 4096,
      ...(entry.params === undefined ? {} : { params: entry.params }),
      sampleIndex: options.candidate,
      // A retry asks the model again, never the cache: a replayed run must not replay the replies it rejected.
      ...(options.attempt > 1 ? { refresh: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { ok: true, reply: result.text };
  } catch (error) {
    if (error instanceof ProviderError && (error.stopsRun || error.kind === 'aborted')) throw error;
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
