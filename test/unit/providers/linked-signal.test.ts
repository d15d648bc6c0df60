import { readdir, readFile } from 'node:fs/promises';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkSignals } from '../../../src/providers/linked-signal.js';
import { createModelPool } from '../../../src/providers/model-pool.js';
import type { Provider } from '../../../src/providers/types.js';

/** Node 20's record, on a source signal, of every AbortSignal.any made from it (never pruned). */
function dependants(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals');
  const set = key === undefined ? undefined : (signal as unknown as Record<symbol, Set<unknown>>)[key];
  return set?.size ?? 0;
}

describe('linkSignals', () => {
  it('lets a source hold a listener per call in flight without Node printing a leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const run = new AbortController();
      const links = Array.from({ length: 40 }, () => linkSignals(run.signal));
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(40);
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setTimeout(resolve, 10));
      for (const link of links) link.dispose();
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('aborts with the reason of whichever source aborts first', () => {
    const run = new AbortController();
    const call = new AbortController();
    const linked = linkSignals(run.signal, undefined, call.signal);
    expect(linked.signal.aborted).toBe(false);
    call.abort(new Error('timed out'));
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toEqual(new Error('timed out'));
    // Once it has fired, it holds nothing on the other source.
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('is aborted at once when a source already is', () => {
    const run = new AbortController();
    run.abort('stop');
    expect(linkSignals(run.signal).signal.reason).toBe('stop');
  });

  it('lets go of its sources when disposed', () => {
    const run = new AbortController();
    const linked = linkSignals(run.signal);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    linked.dispose();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    run.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});

describe('a run’s signal across many calls', () => {
  it('holds nothing for calls that are over', async () => {
    const run = new AbortController();
    let listenersDuringCall = 0;
    const provider: Provider = {
      name: 'sim',
      model: 'm',
      async complete() {
        listenersDuringCall = getEventListeners(run.signal, 'abort').length;
        return { text: 'ok', usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 0, latencyMs: 0 };
      },
    };
    const pool = createModelPool({
      models: { generator: { provider: 'sim' } },
      concurrency: 4,
      env: {},
      signal: run.signal,
      createProvider: () => provider,
    });
    const client = pool.client('generator');
    for (let i = 0; i < 200; i += 1) {
      await client.complete({ messages: [{ role: 'user', content: `call ${i}` }], signal: run.signal });
    }
    // While a call runs, the run's Ctrl-C reaches it; once it is over, nothing of it is left.
    expect(listenersDuringCall).toBeGreaterThan(0);
    await pool.close();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    expect(dependants(run.signal)).toBe(0);
  });

  it('AbortSignal.any appears nowhere in the product (it would keep an entry per call)', async () => {
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith('.ts') && /AbortSignal\.any\(/.test(await readFile(path, 'utf8'))) {
          found.push(path);
        }
      }
    };
    await walk(join(import.meta.dirname, '../../../src'));
    expect(found).toEqual([]);
  });
});
