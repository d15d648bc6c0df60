/**
 * The identity of a prompt for duplicate detection. Two prompts that differ only in line
 * endings or trailing whitespace read the same to a model, and evaluating both would pay twice
 * for one result, so the hash is taken over a normalised text: CRLF/CR → LF, trailing spaces
 * and tabs removed from every line, trailing blank lines removed. The prompt itself is kept
 * exactly as proposed; only its hash is normalised.
 */
import { sha256Hex } from './sha256.js';

export function normalisePromptForHash(prompt: string): string {
  return prompt
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n+$/, '');
}

/** sha256 (hex) of the normalised prompt; build every `triedHashes` set with this function. */
export function hashPrompt(prompt: string): string {
  return sha256Hex(normalisePromptForHash(prompt));
}
