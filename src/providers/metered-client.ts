/**
 * Wraps a ModelClient to report what each call cost. Candidates of an iteration run
 * concurrently on shared clients, so the pool's ledger alone cannot tell their costs apart.
 */
import type { CompletionRequest, CompletionResult, ModelClient } from '../providers/types.js';

export function meteredClient(client: ModelClient, onCost: (usd: number) => void): ModelClient {
  return {
    role: client.role,
    entry: client.entry,
    simulated: client.simulated,
    concurrency: client.concurrency,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const result = await client.complete(request);
      onCost(result.costUsd ?? 0);
      return result;
    },
  };
}
