/** From a model entry to the adapter that serves it: the constructor of its registry row. */
import type { ModelEntry } from '../experiment/schema.js';
import { type ProviderDeps, providerRecord } from './registry.js';
import type { Provider } from './types.js';

export type ProviderFactory = (entry: ModelEntry) => Provider | Promise<Provider>;

export function createProvider(entry: ModelEntry, deps: ProviderDeps): Promise<Provider> {
  return providerRecord(entry.provider).create(entry, deps);
}
