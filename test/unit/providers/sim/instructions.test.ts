import { describe, expect, test } from 'vitest';
import { parseInstructions, statedFamilies } from '../../../../src/providers/sim/instructions.js';
import { JARGON } from '../../../../src/providers/sim/vocabulary.js';

describe('parseInstructions', () => {
  test('a prompt with no instructions states no family', () => {
    const found = parseInstructions(
      'Write a cold email about Usage-based billing for CTO at a 50-person SaaS.',
    );
    expect(statedFamilies(found).size).toBe(0);
  });

  test.each([
    ['Keep it under 120 words.', 120],
    ['Use no more than 80 words.', 80],
    ['At most 60 words, please.', 60],
    ['Stay within a 90-word limit.', 90],
    ['100 words or fewer.', 100],
  ])('reads the word limit in %j', (prompt, limit) => {
    expect(parseInstructions(prompt).maxWords?.value).toBe(limit);
  });

  test('the strictest of several word limits wins', () => {
    expect(parseInstructions('Keep it under 150 words.\nReally, under 100 words.').maxWords?.value).toBe(100);
  });

  test('reads sentence limits in digits and words', () => {
    expect(parseInstructions('Answer in 3 sentences.').maxSentences?.value).toBe(3);
    expect(parseInstructions('Reply in two sentences.').maxSentences?.value).toBe(2);
  });

  test('reads a quoted opening and a subject line request', () => {
    expect(parseInstructions("Start with 'Subject:'.").opening?.value).toBe('Subject:');
    expect(parseInstructions('Begin the email with "Dear Dana".').opening?.value).toBe('Dear Dana');
    expect(parseInstructions('Begin with a short subject line.').opening?.value).toBe('Subject:');
    expect(parseInstructions('Do not add a subject line.').opening).toBeUndefined();
  });

  test('reads items to mention without positional qualifiers', () => {
    const found = parseInstructions(
      'Mention Acme Corp in the first sentence. Mention the Q3 launch, the new API.',
    );
    expect(found.mentions.map((m) => m.value)).toEqual(['Acme Corp', 'the Q3 launch', 'the new API']);
  });

  test('reads banned words, quoted or listed, and expands a generic jargon ban', () => {
    expect(parseInstructions('Never use these words: synergy, leverage.').avoid?.value).toEqual([
      'synergy',
      'leverage',
    ]);
    expect(parseInstructions("Avoid 'circle back' and 'touch base'.").avoid?.value).toEqual([
      'circle back',
      'touch base',
    ]);
    const generic = parseInstructions('Avoid corporate jargon (e.g. synergy).').avoid?.value ?? [];
    expect(generic).toEqual(expect.arrayContaining(['synergy', ...JARGON]));
  });

  test('a ban ends where the next clause starts', () => {
    const found = parseInstructions('Avoid jargon and filler; keep the tone warm and direct.');
    expect(found.avoid?.value).not.toContain('direct');
    expect(found.avoid?.value).toContain('synergy');
    expect(found.tones?.value).toEqual(['warm', 'direct']);
  });

  test('reads a closing question, bullets, JSON keys with options, tones and specifics', () => {
    const found = parseInstructions(
      [
        'End with a question.',
        'Use bullet points.',
        'Reply with JSON with keys `category` (one of: billing, technical, other) and `priority`.',
        'Keep the tone warm and direct.',
        'Include one concrete number.',
      ].join('\n'),
    );
    expect(found.endQuestion?.value).toBe(true);
    expect(found.bullets?.value).toBe(true);
    expect(found.json?.value.keys).toEqual(['category', 'priority']);
    expect(found.json?.value.options['category']).toEqual(['billing', 'technical', 'other']);
    expect(found.tones?.value).toEqual(['warm', 'direct']);
    expect(found.specifics?.value).toBe(true);
  });

  test('negated formats are not instructions to use them', () => {
    const found = parseInstructions(
      'Do not use bullet points. Never answer in JSON. Do not end with a question.',
    );
    expect(found.bullets).toBeUndefined();
    expect(found.json).toBeUndefined();
    expect(found.endQuestion).toBeUndefined();
  });

  test('firm wording and firm list headers mark rules as firm', () => {
    expect(parseInstructions('Keep it under 100 words.').maxWords?.firm).toBe(false);
    expect(parseInstructions('You must keep it under 100 words.').maxWords?.firm).toBe(true);
    const listed = parseInstructions(
      'Write an email.\n\nFollow these rules strictly:\n1. Under 100 words.\n2. End with a question.',
    );
    expect(listed.maxWords?.firm).toBe(true);
    expect(listed.endQuestion?.firm).toBe(true);
  });

  test('ignores instructions it does not know', () => {
    const found = parseInstructions(
      'Make the message memorable. Write with energy and confidence. Use vivid language.',
    );
    expect(statedFamilies(found).size).toBe(0);
  });
});
