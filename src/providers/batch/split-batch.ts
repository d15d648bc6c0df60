/**
 * Lines cut into batches at a provider's limits (docs/design/cost-engine.md): at most `requests`
 * lines and `bytes` bytes each, in order. The overhead of the envelope (Anthropic's
 * `{"requests":[…]}`) is left as a margin of 1 KiB. A single line larger than the limit goes alone:
 * the provider refuses it and its call is made interactively.
 */
import type { BatchLimits, BatchLine } from './batch-api.js';

const ENVELOPE_BYTES = 1024;

export function splitBatch(
  lines: readonly BatchLine[],
  limits: BatchLimits,
  bytesOf: (line: BatchLine) => number,
): BatchLine[][] {
  const chunks: BatchLine[][] = [];
  let current: BatchLine[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const line of lines) {
    const size = bytesOf(line);
    if (current.length > 0 && (current.length >= limits.requests || bytes + size > limits.bytes)) {
      chunks.push(current);
      current = [];
      bytes = ENVELOPE_BYTES;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
