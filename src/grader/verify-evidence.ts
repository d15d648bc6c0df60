/**
 * Does a PASS cite text that really occurs in an output — or, for an agent case, in the agent's
 * transcript (docs/design/grader-protocol.md)? Quotes
 * are compared after normalising whitespace, typographic quotes, dashes and case (case-insensitive:
 * a quote is evidence of content, and models often change the case of a quoted sentence's first
 * letter). A quote must be at least MIN_QUOTE_CHARS long; quoted passages, the text after a label
 * ("Output 1: …") and the parts around an ellipsis are tried one by one.
 */

export const MIN_QUOTE_CHARS = 12;

export type EvidenceCheck = { verified: true; quote: string } | { verified: false; reason: string };

export function normaliseForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Surrounding quote marks and punctuation are not part of a quote. */
function trimQuote(text: string): string {
  return text.replace(/^[\s"'`.,;:!?()[\]-]+|[\s"'`.,;:!?()[\]-]+$/g, '');
}

export function candidateQuotes(evidence: string): string[] {
  const text = normaliseForMatch(evidence);
  const found = new Set<string>([text]);
  for (const match of text.matchAll(/"([^"]+)"|`([^`]+)`|(?:^|[\s(:])'(.+?)'(?=$|[\s).,;:!?])/g)) {
    found.add(match[1] ?? match[2] ?? match[3] ?? '');
  }
  const colon = text.indexOf(': ');
  if (colon >= 0) found.add(text.slice(colon + 2));
  const parts = new Set<string>();
  for (const candidate of found) {
    for (const part of candidate.split(/\.\.\.|\[\.\.\.\]/)) {
      const trimmed = trimQuote(part);
      if (trimmed !== '') parts.add(trimmed);
    }
  }
  return [...parts];
}

/**
 * `transcripts`: an agent case's transcripts, which count like its outputs; a text case has none
 * (its transcript holds the case's vars, which are no evidence).
 */
export function checkEvidence(
  evidence: string,
  expectation: string,
  outputs: readonly string[],
  transcripts: readonly string[] = [],
): EvidenceCheck {
  if (evidence.trim() === '') return { verified: false, reason: 'the PASS cites no evidence' };
  const haystacks = [...outputs, ...transcripts].map(normaliseForMatch);
  const candidates = candidateQuotes(evidence);
  const long = candidates.filter((c) => c.length >= MIN_QUOTE_CHARS);
  const hit = long.find((c) => haystacks.some((h) => h.includes(c)));
  if (hit !== undefined) return { verified: true, quote: hit };
  const wanted = normaliseForMatch(expectation);
  if (candidates.some((c) => c.length >= 8 && wanted.includes(c))) {
    return { verified: false, reason: 'the evidence restates the expectation instead of quoting an output' };
  }
  if (long.length === 0) {
    return { verified: false, reason: `the quoted evidence is shorter than ${MIN_QUOTE_CHARS} characters` };
  }
  return {
    verified: false,
    reason:
      transcripts.length === 0
        ? 'the quoted evidence does not occur in any output'
        : 'the quoted evidence occurs neither in an output nor in the transcript',
  };
}
