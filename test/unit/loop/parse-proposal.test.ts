import { describe, expect, it } from 'vitest';
import { fence } from '../../../src/protocol/delimit.js';
import { parseProposal } from '../../../src/loop/parse-proposal.js';
import { hashPrompt } from '../../../src/prompt-hash.js';
import { INCUMBENT_PROMPT } from './feedback-fixtures.js';

const better = INCUMBENT_PROMPT.replace('Write a cold email', 'Write a short, specific cold email');
const options = { incumbent: INCUMBENT_PROMPT, triedHashes: new Set<string>(), maxGrowth: 1.5 };
const reply = (prompt: string, hypothesis = 'Shorter emails pass the word-count check.') =>
  JSON.stringify({ hypothesis, prompt });

function rejected(text: string, opts = options) {
  const result = parseProposal(text, opts);
  if (result.ok) throw new Error('expected a rejection');
  return result;
}

describe('parseProposal', () => {
  it('accepts a bare JSON object', () => {
    const result = parseProposal(reply(better), options);
    expect(result).toEqual({
      ok: true,
      hypothesis: 'Shorter emails pass the word-count check.',
      prompt: better,
      hash: hashPrompt(better),
    });
  });

  it('accepts one ```json fence, with prose around it', () => {
    const text = `Here is my proposal.\n\n\`\`\`json\n${JSON.stringify({ hypothesis: ' h ', prompt: better }, null, 2)}\n\`\`\`\nGood luck!`;
    expect(parseProposal(text, options)).toMatchObject({ ok: true, prompt: better, hypothesis: 'h' });
  });

  it('tolerates raw line breaks inside the JSON strings', () => {
    const raw = `{"hypothesis": "one\nchange", "prompt": "${better.replaceAll('"', '\\"')}"}`;
    expect(raw).toContain('\n');
    expect(parseProposal(raw, options)).toMatchObject({ ok: true, prompt: better });
  });

  it('rejects two objects, no object, and a wrong shape', () => {
    expect(rejected(`${reply(better)}\n${reply(better)}`).message).toMatch(/2 JSON objects/);
    expect(rejected('I would change the tone.').message).toMatch(/no JSON object/);
    expect(rejected('{"hypothesis": "x"}').message).toMatch(/"prompt" must be a non-empty string/);
    expect(rejected(JSON.stringify({ hypothesis: '  ', prompt: better })).message).toMatch(/"hypothesis"/);
    expect(rejected('{"hypothesis": "x", "prompt": "unterminated').reason).toBe('invalid');
  });

  it('rejects a dropped placeholder, naming it', () => {
    const r = rejected(reply(better.replace('{{ audience }}', 'the reader')));
    expect(r.reason).toBe('invalid');
    expect(r.message).toContain('your prompt dropped {{audience}}');
  });

  it('accepts a placeholder respelled with spaces, rejects a new one', () => {
    expect(parseProposal(reply(better.replace('{{ audience }}', '{{audience}}')), options).ok).toBe(true);
    const r = rejected(reply(`${better}\nTone: {{tone}}`));
    expect(r.message).toContain('adds {{tone}}');
    expect(r.message).toContain('use only {{topic}}, {{audience}}');
  });

  it('rejects a changed, removed, broken or added keep block', () => {
    const changed = better.replace('"The Team"', '"The Crew"');
    expect(rejected(reply(changed)).message).toContain(
      'changed or removed the keep block "Sign it as "The Team"."',
    );
    const removed = better.replace('<!-- keep -->', '').replace('<!-- /keep -->', '');
    expect(rejected(reply(removed)).message).toContain('changed or removed the keep block');
    expect(rejected(reply(better.replace('<!-- /keep -->', ''))).message).toContain(
      'markers in your prompt are broken',
    );
    expect(rejected(reply(`${better}\n<!-- keep -->mine<!-- /keep -->`)).message).toContain(
      'adds a keep block',
    );
  });

  it('accepts keep blocks moved elsewhere in the prompt', () => {
    const lines = better.split('\n');
    const moved = [lines[2], lines[0], lines[1]].join('\n');
    expect(parseProposal(reply(moved), options).ok).toBe(true);
  });

  it('rejects a prompt longer than max_growth × the incumbent', () => {
    const limit = Math.floor(1.5 * INCUMBENT_PROMPT.length);
    const atLimit = better + 'x'.repeat(limit - better.length);
    expect(parseProposal(reply(atLimit), options).ok).toBe(true);
    const r = rejected(reply(`${atLimit}x`));
    expect(r.message).toContain(`your prompt has ${limit + 1} characters and the limit is ${limit}`);
  });

  it('rejects the fence markers copied into the prompt', () => {
    expect(rejected(reply(fence('PROMPT', better))).message).toContain('markers');
  });

  it('flags a copy of the incumbent as a duplicate, also with other line endings or trailing spaces', () => {
    expect(rejected(reply(INCUMBENT_PROMPT))).toMatchObject({ reason: 'duplicate' });
    const crlf = `${INCUMBENT_PROMPT.replaceAll('\n', '  \r\n')}\n\n`;
    expect(rejected(reply(crlf)).message).toContain('current prompt unchanged');
  });

  it('flags a prompt already tried as a duplicate', () => {
    const tried = { ...options, triedHashes: new Set([hashPrompt(better)]) };
    const r = rejected(reply(better), tried);
    expect(r.reason).toBe('duplicate');
    expect(r.message).toContain('already tried');
  });
});
