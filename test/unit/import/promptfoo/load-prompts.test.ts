import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPrompts } from '../../../../src/import/promptfoo/load-prompts.js';

const dir = mkdtempSync(join(tmpdir(), 'ar-pf-prompts-'));
mkdirSync(join(dir, 'prompts'));
writeFileSync(join(dir, 'prompts', 'two.txt'), 'First {{a}}\n---\nSecond {{a}}\n');
writeFileSync(join(dir, 'prompts', 'one.md'), '# Task\n\nDo {{b}}.\n');
writeFileSync(
  join(dir, 'prompts', 'chat.json'),
  JSON.stringify([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi {{c}}' },
  ]),
);
writeFileSync(
  join(dir, 'prompts', 'no-user.json'),
  JSON.stringify([{ role: 'system', content: 'Only a system message' }]),
);
writeFileSync(join(dir, 'legacy.txt'), 'Legacy path {{d}}');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (raw: unknown) => loadPrompts(raw, dir, dir);

describe('loadPrompts', () => {
  it('numbers inline strings, files, split .txt files and chat files in order', async () => {
    const choices = await load([
      'Inline {{x}}',
      'file://prompts/two.txt',
      'file://prompts/one.md',
      'file://prompts/chat.json',
      'legacy.txt',
    ]);
    expect(choices.map((c) => [c.label, c.source, c.text, c.chat?.system])).toEqual([
      ['Inline {{x}}', 'prompts[0]', 'Inline {{x}}', undefined],
      ['prompts/two.txt #1', 'prompts[1], two.txt part 1', 'First {{a}}', undefined],
      ['prompts/two.txt #2', 'prompts[1], two.txt part 2', 'Second {{a}}', undefined],
      ['prompts/one.md', 'prompts[2], prompts/one.md', '# Task\n\nDo {{b}}.\n', undefined],
      ['prompts/chat.json', 'prompts[3], prompts/chat.json', 'Hi {{c}}', 'Be brief.'],
      ['legacy.txt', 'prompts[4], legacy.txt', 'Legacy path {{d}}', undefined],
    ]);
  });

  it('reads { raw, label } and { id: file://…, label } entries and the { path: label } map', async () => {
    const choices = await load([
      { raw: 'Raw {{x}}', label: 'short' },
      { id: 'file://prompts/one.md', label: 'doc' },
    ]);
    expect(choices.map((c) => [c.label, c.text])).toEqual([
      ['short', 'Raw {{x}}'],
      ['doc', '# Task\n\nDo {{b}}.\n'],
    ]);
    const map = await load({ 'file://prompts/chat.json': 'chatty' });
    expect(map.map((c) => [c.label, c.text])).toEqual([['chatty', 'Hi {{c}}']]);
  });

  it('reads an inline JSON list of messages as a chat prompt', async () => {
    const [choice] = await load([
      '[{"role": "system", "content": "Sys"}, {"role": "user", "content": "Tell me about {{t}}"}]',
    ]);
    expect(choice).toMatchObject({
      text: 'Tell me about {{t}}',
      chat: { system: 'Sys', messages: [{ role: 'user', content: 'Tell me about {{t}}' }] },
    });
  });

  it('keeps prompts that cannot be imported in the list, with the reason', async () => {
    const choices = await load([
      'file://build.js',
      'file://prompts/*.txt',
      'file://missing.txt',
      'file://prompts/no-user.json',
      { label: 'empty' },
      42,
    ]);
    expect(choices.map((c) => c.problem)).toEqual([
      expect.stringContaining('a prompt function'),
      expect.stringContaining('a glob of prompt files'),
      expect.stringContaining('missing.txt does not exist'),
      'the chat prompt has no user message',
      expect.stringContaining('neither `raw` text nor a file `id`'),
      'neither a string nor a prompt entry',
    ]);
  });

  it('reports extra keys on a prompt entry as parts that were not carried over', async () => {
    const [choice] = await load([{ raw: 'x', label: 'l', config: { temperature: 0 } }]);
    expect(choice?.dropped).toEqual([
      { subject: '`config` on the prompt entry', why: 'no equivalent: the prompt is plain text' },
    ]);
  });
});
