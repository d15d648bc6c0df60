/**
 * The length probe's padding (docs/design/judge-reliability.md): neutral filler appended to an
 * output until it is at least half as long again. The filler is a rotation of closing pleasantries
 * that say nothing about the subject, so a judge that scores the content should not move; one that
 * rewards length will. (It is plain text: padding a JSON output makes it invalid, which a judge may
 * rightly mark down.)
 */

export const FILLER_SENTENCES = [
  'I hope this is useful.',
  'Thank you for reading.',
  'Please let me know if anything here is unclear.',
  'I am happy to say more about any of this.',
] as const;

/** The padded text is at least this many times the original's length. */
export const PADDED_LENGTH = 1.5;

export function padOutput(text: string): string {
  const body = text.trimEnd();
  const target = Math.ceil(body.length * (PADDED_LENGTH - 1));
  const filler: string[] = [];
  let length = 0;
  // At least one sentence, even for an empty output.
  for (let index = 0; filler.length === 0 || length < target; index += 1) {
    const sentence = FILLER_SENTENCES[index % FILLER_SENTENCES.length] as string;
    filler.push(sentence);
    length += sentence.length + 1;
  }
  return `${body}\n\n${filler.join(' ')}\n`;
}
