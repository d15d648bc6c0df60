/** sha256, the one content hash of the tool: digests, cache keys, case ids, fence tags, seeds. */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** The digest's raw bytes, for callers that derive a number or another encoding from it. */
export function sha256Bytes(data: string | Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** sha256 (hex) of the text's UTF-8 bytes, or of the given bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 (hex) of a value's canonical JSON, so equal values hash alike whatever their key order. */
export function sha256Json(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
