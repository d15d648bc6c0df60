import { describe, expect, it } from 'vitest';
import { FILLER_SENTENCES, PADDED_LENGTH, padOutput } from '../../../src/calibrate/pad-output.js';

describe('padOutput', () => {
  it('keeps the output and appends neutral filler until it is half as long again', () => {
    const text = 'Hi Dana, your parcel 7 arrives on Thursday before noon.\n';
    const padded = padOutput(text);
    expect(padded.startsWith(`${text.trimEnd()}\n\n${FILLER_SENTENCES[0]} ${FILLER_SENTENCES[1]}`)).toBe(
      true,
    );
    expect(padded.length).toBeGreaterThanOrEqual(text.trimEnd().length * PADDED_LENGTH);
    expect(padded.length).toBeLessThan(text.length * PADDED_LENGTH + 60);
  });

  it('cycles the sentences for a long output and adds one to an empty one', () => {
    const long = 'word '.repeat(200);
    const filler = padOutput(long).slice(long.trimEnd().length + 2);
    for (const sentence of FILLER_SENTENCES) expect(filler).toContain(sentence);
    expect(padOutput('')).toBe(`\n\n${FILLER_SENTENCES[0]}\n`);
  });
});
