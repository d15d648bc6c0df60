/**
 * A client whose calls go on one account of the pool's ledger. Candidates of an iteration run
 * concurrently on shared clients; the account is how the ledger tells their costs apart.
 */
import type { ModelClient } from './types.js';

export function clientOnAccount(client: ModelClient, account: string): ModelClient {
  return {
    role: client.role,
    entry: client.entry,
    simulated: client.simulated,
    concurrency: client.concurrency,
    complete: (request) => client.complete({ ...request, account }),
  };
}
