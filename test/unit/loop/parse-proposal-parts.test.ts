/**
 * Mutator replies for a prompt with several optimisable parts (docs/design/prompt-shapes.md):
 * `edits` by part name, every rule held per part, and each rejection naming the part so the re-ask
 * says what to fix.
 */
import { describe, expect, it } from 'vitest';
import { joinPartTexts, splitPromptText } from '../../../src/experiment/part-texts.js';
import { parseProposal } from '../../../src/loop/parse-proposal.js';
import { hashPrompt } from '../../../src/prompt-hash.js';

const SYSTEM = 'You answer billing questions.\n<!-- keep -->\nNever promise refunds.\n<!-- /keep -->\n';
const USER = 'Customer {{name}} asks: {{question}}\n';
const incumbent = joinPartTexts({ system: SYSTEM, 'messages[2]': USER });
const options = {
  incumbent,
  triedHashes: new Set<string>(),
  maxGrowth: 2,
  parts: {
    optimised: ['system', 'messages[2]'],
    fixed: ['messages[0]', 'messages[1]'],
    placeholders: ['tier', 'name', 'question'],
  },
};
const reply = (edits: Record<string, string>, hypothesis = 'Name the customer.') =>
  JSON.stringify({ hypothesis, edits });

function rejection(text: string): string {
  const result = parseProposal(text, options);
  if (result.ok) throw new Error('expected a rejection');
  expect(result.reason).toBe('invalid');
  return result.message;
}

describe('parseProposal with several parts', () => {
  it('applies an edit of one part and keeps the others as they are', () => {
    const user = 'Customer {{name}} asks: {{question}}\nGreet {{name}} by name.\n';
    const result = parseProposal(reply({ 'messages[2]': user }), options);
    if (!result.ok) throw new Error(result.message);
    expect(splitPromptText(result.prompt, options.parts.optimised)).toEqual({
      system: SYSTEM,
      'messages[2]': user,
    });
    expect(result.hash).toBe(hashPrompt(result.prompt));
  });

  it('applies edits of two parts at once', () => {
    const system = SYSTEM.replace('billing', 'billing and invoice');
    const user = USER.replace('asks', 'writes');
    const result = parseProposal(reply({ system, 'messages[2]': user }), options);
    expect(result).toMatchObject({ ok: true, prompt: joinPartTexts({ system, 'messages[2]': user }) });
  });

  it('rejects a dropped or added placeholder, naming the part', () => {
    expect(rejection(reply({ 'messages[2]': 'Customer {{name}} asks something.\n' }))).toBe(
      'in part `messages[2]`: your prompt dropped {{question}}; every placeholder of the current prompt must stay, since the test cases fill them',
    );
    expect(rejection(reply({ system: `${SYSTEM}Address {{nickname}}.\n` }))).toBe(
      'in part `system`: your prompt adds {{nickname}}, which no test case has a value for; use only {{tier}}, {{name}}, {{question}}',
    );
    // A placeholder another part uses may be taken up: every case fills it.
    expect(
      parseProposal(reply({ system: `${SYSTEM}Address {{name}}, a {{tier}} customer.\n` }), options),
    ).toMatchObject({
      ok: true,
    });
  });

  it('rejects a changed keep block, naming the part', () => {
    expect(rejection(reply({ system: SYSTEM.replace('Never promise', 'Rarely promise') }))).toBe(
      'in part `system`: your prompt changed or removed the keep block "Never promise refunds."; copy it exactly, from <!-- keep --> to <!-- /keep -->',
    );
  });

  it('rejects growth past the part’s own limit', () => {
    expect(rejection(reply({ 'messages[2]': `${USER}${'More detail. '.repeat(6)}` }))).toMatch(
      /^in part `messages\[2\]`: your prompt has \d+ characters and the limit is 74 \(2 × the current 37\)/,
    );
  });

  it('rejects an unknown part, a fixed part, no part, and the single-part form', () => {
    expect(rejection(reply({ sytem: SYSTEM }))).toBe(
      '`sytem` is not a part of this prompt; the parts you may change are `system`, `messages[2]`',
    );
    expect(rejection(reply({ 'messages[0]': 'Customer tier: gold' }))).toBe(
      '`messages[0]` is a fixed part: it is sent as it is and cannot be edited; change only `system`, `messages[2]`',
    );
    expect(rejection(reply({}))).toBe(
      '"edits" names no part; name each part you change with its whole new text',
    );
    expect(rejection(JSON.stringify({ hypothesis: 'h', prompt: SYSTEM }))).toBe(
      'this prompt has 2 parts you may change (`system`, `messages[2]`), so name each one you change: reply with {"hypothesis": "...", "edits": {"<part name>": "<its whole new text>"}}',
    );
  });

  it('rejects a part marker line inside an edit, and an unchanged or repeated prompt as duplicates', () => {
    expect(rejection(reply({ system: `${SYSTEM}<!-- part: messages[2] -->\n` }))).toMatch(
      /^in part `system`: it holds the line "<!-- part: messages\[2\] -->"/,
    );
    const same = parseProposal(reply({ system: SYSTEM }), options);
    expect(same).toMatchObject({ ok: false, reason: 'duplicate' });
    const tried = joinPartTexts({ system: `${SYSTEM}Be kind.\n`, 'messages[2]': USER });
    expect(
      parseProposal(reply({ system: `${SYSTEM}Be kind.\n` }), {
        ...options,
        triedHashes: new Set([hashPrompt(tried)]),
      }),
    ).toMatchObject({ ok: false, reason: 'duplicate' });
  });
});

describe('parseProposal with one part', () => {
  it('reads `edits` naming that part like `prompt`', () => {
    const one = { incumbent: USER, triedHashes: new Set<string>(), maxGrowth: 2 };
    const user = `${USER}Be brief.\n`;
    expect(parseProposal(reply({ prompt: user }), one)).toMatchObject({ ok: true, prompt: user });
    expect(
      parseProposal(reply({ system: user }), {
        ...one,
        parts: { optimised: ['system'], fixed: ['messages[0]'], placeholders: [] },
      }),
    ).toMatchObject({ ok: true, prompt: user });
    const wrong = parseProposal(reply({ system: user }), one);
    expect(wrong).toMatchObject({
      ok: false,
      message: '`system` is not a part of this prompt; the parts you may change are `prompt`',
    });
  });
});
