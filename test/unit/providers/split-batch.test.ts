/**
 * Batches cut at a provider's limits (docs/design/cost-engine.md): request count and bytes, order
 * kept.
 */
import { describe, expect, it } from 'vitest';
import type { BatchLine } from '../../../src/providers/batch/batch-api.js';
import { splitBatch } from '../../../src/providers/batch/split-batch.js';

const line = (id: string, size: number): BatchLine => ({ customId: id, body: { pad: 'x'.repeat(size) } });
const bytes = (l: BatchLine) => JSON.stringify(l.body).length;
const ids = (chunks: BatchLine[][]) => chunks.map((c) => c.map((l) => l.customId));

describe('splitBatch', () => {
  it('cuts at the request limit', () => {
    const lines = ['a', 'b', 'c', 'd', 'e'].map((id) => line(id, 10));
    expect(ids(splitBatch(lines, { requests: 2, bytes: 1e9 }, bytes))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e'],
    ]);
  });

  it('cuts before a line that would pass the byte limit (1 KiB kept for the envelope)', () => {
    const lines = ['a', 'b', 'c'].map((id) => line(id, 990));
    // Each body is 1,000 bytes: 1,024 + 2 × 1,000 fits in 3,100, a third does not.
    expect(ids(splitBatch(lines, { requests: 100, bytes: 3_100 }, bytes))).toEqual([['a', 'b'], ['c']]);
  });

  it('sends a line larger than the limit alone, and nothing for no lines', () => {
    const lines = [line('small', 1), line('huge', 5_000), line('after', 1)];
    expect(ids(splitBatch(lines, { requests: 100, bytes: 4_000 }, bytes))).toEqual([
      ['small'],
      ['huge'],
      ['after'],
    ]);
    expect(splitBatch([], { requests: 1, bytes: 1 }, bytes)).toEqual([]);
  });
});
