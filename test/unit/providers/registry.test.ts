/**
 * The provider registry (src/providers/registry.ts) is where the provider names come from: the
 * `--provider` choices, the experiment schema, the judge's model settings and the journal's
 * batch events all list exactly its rows, so a new provider is its adapter plus one row.
 */
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { ModelEntry, ProviderName } from '../../../src/experiment/schema.js';
import { ModelSettings } from '../../../src/protocol/model-settings.js';
import { apiKeyEnvName, keyIsRequired, resolveBaseUrl } from '../../../src/providers/env.js';
import { batchPriceFactor } from '../../../src/providers/discounts.js';
import { PROVIDER_REGISTRY, PROVIDERS } from '../../../src/providers/registry.js';
import { BatchSubmitted } from '../../../src/run/events.js';

const rows = Object.keys(PROVIDER_REGISTRY);

function providerChoices(command: Command): { path: string; choices: readonly string[] | undefined }[] {
  const own = (command.options as readonly Option[])
    .filter((option) => option.long === '--provider')
    .map((option) => ({ path: command.name(), choices: option.argChoices }));
  return [...own, ...command.commands.flatMap(providerChoices)];
}

describe('the provider registry', () => {
  it('has one row per provider name, in order', () => {
    expect(rows).toEqual([...PROVIDERS]);
  });

  it('gives every --provider flag its rows as the choices', () => {
    const flags = providerChoices(buildProgram());
    expect(flags.map((f) => f.path).sort()).toEqual(['calibrate', 'eval', 'resume', 'run', 'validate']);
    for (const flag of flags) expect(flag.choices, flag.path).toEqual(rows);
  });

  it('gives the experiment schema, the judge settings and batch events its rows as the providers', () => {
    expect(ProviderName.options).toEqual(rows);
    for (const name of rows) {
      expect(ModelEntry.safeParse({ provider: name }).success, name).toBe(true);
      expect(ModelSettings.safeParse({ provider: name }).success, name).toBe(true);
    }
    expect(ModelEntry.safeParse({ provider: 'not-a-row' }).success).toBe(false);
    expect(ModelSettings.safeParse({ provider: 'not-a-row' }).success).toBe(false);
    const batch = {
      v: 5,
      at: '2025-01-01T00:00:00.000Z',
      type: 'batch_submitted',
      batchId: 'b',
      model: 'm',
      requests: 1,
    };
    for (const name of rows)
      expect(BatchSubmitted.safeParse({ ...batch, provider: name }).success).toBe(true);
  });

  it('names the key, the base URL and the batch discount of each entry from its row', () => {
    for (const name of PROVIDERS) {
      const row = PROVIDER_REGISTRY[name];
      const entry = { provider: name, model: 'm' } as const;
      expect(apiKeyEnvName(entry), name).toBe(row.key?.env);
      expect(keyIsRequired(entry, {}), name).toBe(row.key !== undefined);
      expect(resolveBaseUrl(entry, {}), name).toBe(row.baseUrl?.default ?? '');
      if (row.baseUrl !== undefined)
        expect(resolveBaseUrl(entry, { [row.baseUrl.env]: 'http://127.0.0.1:9/' })).toBe(
          'http://127.0.0.1:9',
        );
      expect(batchPriceFactor(entry), name).toBe(row.batch === undefined ? null : 0.5);
    }
  });
});
