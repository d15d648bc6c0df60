/**
 * Where a file stops being UTF-8. Decoding with replacement would turn a stray Latin-1 byte
 * into U+FFFD, and that character would then reach the model and be committed with the
 * prompt: a user's file that is not UTF-8 is a problem to show, at its line and column.
 */
import { isUtf8 } from 'node:buffer';

export interface InvalidUtf8 {
  line: number;
  /** Column in characters, like every other column we report. */
  col: number;
  /** The first byte that does not decode, e.g. `0xE9`. */
  byte: string;
}

export function findInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | undefined {
  if (isUtf8(bytes)) return undefined;
  const offset = firstInvalidOffset(bytes);
  const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at !== -1 && at < lineStart; at = bytes.indexOf(0x0a, at + 1)) line++;
  const before = Buffer.from(bytes.buffer, bytes.byteOffset + lineStart, offset - lineStart).toString('utf8');
  return {
    line,
    col: before.length + 1,
    byte: `0x${(bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`,
  };
}

/** The offset of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlongs, no surrogates). */
function firstInvalidOffset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min = 0x80;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) min = 0xa0;
      if (b === 0xed) max = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) min = 0x90;
      if (b === 0xf4) max = 0x8f;
    } else return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1] as number;
    if (second < min || second > max) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k] as number;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return bytes.length;
}
