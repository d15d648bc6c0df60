import { describe, expect, test } from 'vitest';
import { OBEY_PROBABILITY, FIRM_OBEY_PROBABILITY } from '../../../../../src/providers/sim/instructions.js';
import { createRng } from '../../../../../src/providers/sim/prng.js';
import { generateOutput } from '../../../../../src/providers/sim/roles/generator.js';
import { countWords, splitSentences } from '../../../../../src/providers/sim/text.js';
import { FILLER, JARGON, findTerms } from '../../../../../src/providers/sim/vocabulary.js';

const TASK = 'Write a cold email about Usage-based billing for CTO at a 50-person SaaS.';
const RUNS = 200;

function rate(prompt: string, holds: (output: string) => boolean): number {
  let hits = 0;
  for (let seed = 0; seed < RUNS; seed++) if (holds(generateOutput(prompt, createRng(seed)))) hits++;
  return hits / RUNS;
}

function expectNear(actual: number, expected: number, tolerance = 0.07): void {
  expect(actual).toBeGreaterThanOrEqual(expected - tolerance);
  expect(actual).toBeLessThanOrEqual(expected + tolerance);
}

describe('without instructions the output is mediocre', () => {
  const outputs = Array.from({ length: 100 }, (_, seed) => generateOutput(TASK, createRng(seed)));

  test('too long, no subject line, no closing question', () => {
    for (const output of outputs) {
      expect(countWords(output)).toBeGreaterThanOrEqual(150);
      expect(countWords(output)).toBeLessThanOrEqual(280);
      expect(output.startsWith('Subject:')).toBe(false);
      expect(output.includes('?')).toBe(false);
    }
  });

  test('often uses corporate jargon and draws on the topic and audience', () => {
    const withJargon = outputs.filter((o) => findTerms(o, JARGON).length > 0).length / outputs.length;
    expect(withJargon).toBeGreaterThan(0.4);
    expect(withJargon).toBeLessThan(0.8);
    expect(outputs.every((o) => o.includes('usage-based billing'))).toBe(true);
    expect(outputs.filter((o) => o.includes('CTO at a 50-person SaaS')).length).toBeGreaterThan(70);
  });

  test('different cases get different content', () => {
    const other = generateOutput(
      'Write a cold email about Dental scheduling for a clinic owner.',
      createRng(0),
    );
    expect(other).toContain('dental scheduling');
    expect(other).not.toContain('billing');
  });
});

describe('each instruction family is obeyed at roughly its probability', () => {
  test('word limits', () => {
    expectNear(
      rate(`${TASK}\nKeep it under 100 words.`, (o) => countWords(o) <= 100),
      OBEY_PROBABILITY,
    );
  });

  test('firm word limits more often', () => {
    expectNear(
      rate(`${TASK}\nYou must keep it under 100 words.`, (o) => countWords(o) <= 100),
      FIRM_OBEY_PROBABILITY,
      0.04,
    );
  });

  test('a required opening', () => {
    expectNear(
      rate(`${TASK}\nStart with 'Subject:'.`, (o) => /^Subject: \S/.test(o)),
      OBEY_PROBABILITY,
    );
  });

  test('mentioning given items', () => {
    expectNear(
      rate(`${TASK}\nMention Acme Robotics.`, (o) => o.includes('Acme Robotics')),
      OBEY_PROBABILITY,
    );
  });

  test('avoiding listed words', () => {
    const clean = (o: string): boolean =>
      findTerms(o, JARGON).length === 0 && findTerms(o, FILLER).length === 0;
    const unprompted = rate(TASK, clean);
    const prompted = rate(`${TASK}\nAvoid jargon and filler.`, clean);
    expect(unprompted).toBeLessThan(0.3);
    expectNear(prompted, OBEY_PROBABILITY);
  });

  test('ending with a question', () => {
    expectNear(
      rate(`${TASK}\nEnd with a question.`, (o) => o.trim().endsWith('?')),
      OBEY_PROBABILITY,
    );
  });

  test('bullet format', () => {
    expectNear(
      rate(`${TASK}\nUse bullet points.`, (o) => /^- \S/m.test(o)),
      OBEY_PROBABILITY,
    );
  });

  test('sentence limits', () => {
    const prompt = 'Explain the benefits of Remote work for new managers in 3 sentences.';
    expectNear(
      rate(prompt, (o) => splitSentences(o).length === 3),
      OBEY_PROBABILITY,
    );
  });

  test('tone words', () => {
    const concise = (o: string): boolean => countWords(o) <= 130 && findTerms(o, FILLER).length === 0;
    expectNear(rate(`${TASK}\nBe concise and direct.`, concise), OBEY_PROBABILITY);
    expectNear(
      rate(`${TASK}\nUse a formal tone.`, (o) => o.includes('Dear colleague')),
      OBEY_PROBABILITY,
    );
    expectNear(
      rate(`${TASK}\nKeep the tone warm.`, (o) => o.includes('really enjoyed')),
      OBEY_PROBABILITY,
    );
  });

  test('concrete numbers', () => {
    const prompt = 'Write a cold email about Usage-based billing for a finance lead.';
    expect(rate(prompt, (o) => /\d/.test(o))).toBeLessThan(0.25);
    expectNear(
      rate(`${prompt}\nInclude one concrete number.`, (o) => /\d/.test(o)),
      OBEY_PROBABILITY + 0.02,
    );
  });

  test('JSON format', () => {
    const prompt =
      'Classify the ticket. Reply with only JSON with keys `category` and `priority`.\nTicket: My card was charged twice.';
    const isJson = (o: string): boolean => {
      try {
        return Object.keys(JSON.parse(o)).join() === 'category,priority';
      } catch {
        return false;
      }
    };
    expectNear(rate(prompt, isJson), OBEY_PROBABILITY);
  });
});

describe('JSON answers', () => {
  const ask = (ticket: string): Record<string, unknown> =>
    JSON.parse(
      generateOutput(
        'Classify this support ticket. You must reply with only JSON with keys `category` (one of: billing, technical, account, other), `priority` (one of: high, medium, low) and `summary`.\n' +
          `Ticket: ${ticket}`,
        createRng(1),
      ),
    );

  test('guesses category and priority from the ticket, within the listed options', () => {
    expect(ask('I was charged twice on my invoice, please fix this asap.')).toMatchObject({
      category: 'billing',
      priority: 'high',
    });
    expect(ask('The export page shows an error when I click it.')).toMatchObject({
      category: 'technical',
      priority: 'medium',
    });
    expect(ask('How do I change my password?')).toMatchObject({ category: 'account', priority: 'low' });
    expect(ask('Do you have a discount for schools?')['category']).toBe('other');
    expect(ask('How do I change my password?')['summary']).toBe('How do I change my password?');
  });
});

describe('combined instructions', () => {
  test('an obedient prompt mostly yields outputs that satisfy all of them', () => {
    const prompt = [
      TASK,
      'You must follow these rules:',
      "1. Start with 'Subject:'.",
      '2. Keep it under 120 words.',
      '3. Never use these words: synergy, leverage.',
      '4. End with a question.',
    ].join('\n');
    const all = rate(
      prompt,
      (o) =>
        o.startsWith('Subject:') &&
        countWords(o) <= 120 &&
        !/synergy|leverage/i.test(o) &&
        o.trim().endsWith('?'),
    );
    expect(all).toBeGreaterThan(0.7);
  });
});
