/**
 * Wraps a ModelClient to add up what one candidate's calls cost. Candidates of an iteration
 * run concurrently on shared clients, so the pool's ledger alone cannot tell them apart.
 */
import type { CompletionRequest, CompletionResult, ModelClient } from '../providers/types.js';

export interface Tally {
  usd: number;
  calls: number;
}

export function tallyClient(client: ModelClient, tally: Tally): ModelClient {
  return {
    role: client.role,
    entry: client.entry,
    simulated: client.simulated,
    concurrency: client.concurrency,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const result = await client.complete(request);
      tally.usd += result.costUsd ?? 0;
      tally.calls += 1;
      return result;
    },
  };
}
