import { afterEach, describe, expect, it } from 'vitest';
import { joinPartTexts } from '../../../src/experiment/part-texts.js';
import { hashPrompt } from '../../../src/prompt-hash.js';
import { extractMergeBlock, MERGE_REQUEST_FORMAT } from '../../../src/protocol/merge-request.js';
import { createModelPool, type ModelPool } from '../../../src/providers/model-pool.js';
import { ProviderError } from '../../../src/providers/types.js';
import { MERGE_SYSTEM_PROMPT } from '../../../src/search/merge-prompt.js';
import { type ProposeMergeInput, proposeMerge } from '../../../src/search/propose-merge.js';
import { createScriptedProviders, type ScriptedHandler } from '../../helpers/scripted-provider.js';

const lines = (...text: string[]) => text.join('\n');

const ANCESTOR = lines(
  'Write a cold email to {{name}} about {{product}}.',
  'Keep it short.',
  '<!-- keep -->Sign it as "The Team".<!-- /keep -->',
  'Be friendly.',
);
const OURS = ANCESTOR.replace('Keep it short.', 'Keep it under 120 words.');
const THEIRS = ANCESTOR.replace('Be friendly.', 'Be friendly and end with one question.');
const THEIRS_CONFLICTING = ANCESTOR.replace('Keep it short.', 'Keep it to three sentences.');

let pool: ModelPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function simClient() {
  pool = createModelPool({ models: { mutator: { provider: 'sim' } }, concurrency: 2, env: {} });
  return pool.client('mutator');
}

function scriptedClient(handler: ScriptedHandler) {
  const scripted = createScriptedProviders({ mut: handler });
  pool = createModelPool({
    models: { mutator: { provider: 'anthropic', model: 'mut' } },
    concurrency: 2,
    env: {},
    createProvider: scripted.factory,
  });
  return { client: pool.client('mutator'), scripted };
}

function input(overrides: Partial<ProposeMergeInput> & Pick<ProposeMergeInput, 'client'>): ProposeMergeInput {
  return {
    candidate: 0,
    ancestor: { id: 'p1', prompt: ANCESTOR },
    a: { id: 'p3', prompt: OURS, hypothesis: 'A word limit will pass the word-count check.' },
    b: { id: 'p5', prompt: THEIRS, hypothesis: 'A closing question will raise call_to_action.' },
    triedHashes: new Set(),
    maxGrowth: 1.5,
    ...overrides,
  };
}

describe('proposeMerge', () => {
  it('merges non-conflicting edits without a model call', async () => {
    const { client, scripted } = scriptedClient(() => {
      throw new Error('a clean merge must not call the mutator');
    });
    const result = await proposeMerge(input({ client }));
    expect(scripted.calls).toHaveLength(0);
    const merged = lines(
      'Write a cold email to {{name}} about {{product}}.',
      'Keep it under 120 words.',
      '<!-- keep -->Sign it as "The Team".<!-- /keep -->',
      'Be friendly and end with one question.',
    );
    expect(result).toEqual({
      ok: true,
      candidate: 0,
      prompt: merged,
      hash: hashPrompt(merged),
      hypothesis:
        'Merge of p3 and p5 (common ancestor p1): p3 "A word limit will pass the word-count check."; p5 "A closing question will raise call_to_action.".',
      conflicts: 0,
      resolved: [],
      attempts: 0,
    });
  });

  it('has the mutator resolve overlapping edits, seeing the ancestor and both versions (sim)', async () => {
    const client = simClient();
    const result = await proposeMerge(
      input({
        client,
        b: { id: 'p5', prompt: THEIRS_CONFLICTING, hypothesis: 'Three sentences read faster.' },
      }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // The sim keeps both sides' instructions, each once.
    expect(result.prompt).toBe(
      lines(
        'Write a cold email to {{name}} about {{product}}.',
        'Keep it under 120 words.',
        'Keep it to three sentences.',
        '<!-- keep -->Sign it as "The Team".<!-- /keep -->',
        'Be friendly.',
      ),
    );
    expect(result.conflicts).toBe(1);
    expect(result.attempts).toBe(1);
    expect(result.hypothesis).toMatch(
      /^Merge of p3 and p5 \(common ancestor p1\), 1 overlapping edit resolved: Keeping the instructions of both p3 and p5/,
    );
    expect(result.resolved).toEqual([
      {
        id: 1,
        part: 'prompt',
        ancestor: 'Keep it short.',
        ours: 'Keep it under 120 words.',
        theirs: 'Keep it to three sentences.',
        resolution: 'Keep it under 120 words.\nKeep it to three sentences.',
      },
    ]);
  });

  it('shows the mutator both versions in its own request format', async () => {
    const { client, scripted } = scriptedClient(() =>
      JSON.stringify({
        hypothesis: 'Both limits.',
        // A final line break is not an extra blank line.
        resolutions: { '1': 'Keep it under 120 words, in three sentences.\n' },
      }),
    );
    const result = await proposeMerge(
      input({
        client,
        candidate: 2,
        b: { id: 'p5', prompt: THEIRS_CONFLICTING, hypothesis: 'Three sentences read faster.' },
      }),
    );
    expect(result.ok && result.prompt).toBe(
      ANCESTOR.replace('Keep it short.', 'Keep it under 120 words, in three sentences.'),
    );
    const [call] = scripted.calls;
    expect(call?.request.system).toBe(MERGE_SYSTEM_PROMPT);
    expect(call?.request.sampleIndex).toBe(2);
    const message = call?.request.messages[0]?.content ?? '';
    expect(extractMergeBlock(message)).toEqual({
      format: MERGE_REQUEST_FORMAT,
      ancestor: 'p1',
      ours: { member: 'p3', hypothesis: 'A word limit will pass the word-count check.' },
      theirs: { member: 'p5', hypothesis: 'Three sentences read faster.' },
      parts: [
        {
          name: 'prompt',
          merged: lines(
            'Write a cold email to {{name}} about {{product}}.',
            '[[conflict 1]]',
            '<!-- keep -->Sign it as "The Team".<!-- /keep -->',
            'Be friendly.',
          ),
          placeholders: ['name', 'product'],
          keep_blocks: ['<!-- keep -->Sign it as "The Team".<!-- /keep -->'],
          max_chars: Math.floor(1.5 * Math.max(OURS.length, THEIRS_CONFLICTING.length)),
        },
      ],
      conflicts: [
        {
          id: 1,
          part: 'prompt',
          ancestor: 'Keep it short.',
          ours: 'Keep it under 120 words.',
          theirs: 'Keep it to three sentences.',
        },
      ],
    });
    expect(message).toContain('## Conflict 1 (part `prompt`)');
    expect(message).toMatch(
      /In p3 \(ours\):\n⟦BEGIN OURS [0-9a-f]{10}⟧\nKeep it under 120 words\.\n⟦END OURS/,
    );
    expect(message).toMatch(
      /In p5 \(theirs\):\n⟦BEGIN THEIRS [0-9a-f]{10}⟧\nKeep it to three sentences\.\n⟦END THEIRS/,
    );
  });

  it('reads the reply strictly, sends each problem back, and gives up after three tries', async () => {
    const replies = [
      'I would keep both.',
      JSON.stringify({ hypothesis: 'x', resolutions: {} }),
      `${JSON.stringify({ hypothesis: 'x', resolutions: { '1': 'a' } })} ${JSON.stringify({ hypothesis: 'y', resolutions: { '1': 'b' } })}`,
    ];
    const { client, scripted } = scriptedClient(({ index }) => replies[index] as string);
    const result = await proposeMerge(
      input({ client, b: { id: 'p5', prompt: THEIRS_CONFLICTING, hypothesis: 'h' } }),
    );
    expect(result).toEqual({
      ok: false,
      candidate: 0,
      reason: 'invalid',
      message:
        'it holds 2 JSON objects; reply with exactly one, {"hypothesis": "...", "resolutions": {"1": "..."}}',
      conflicts: 1,
      attempts: 3,
    });
    const last = scripted.calls[2]?.request.messages ?? [];
    expect(last.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(last[2]?.content).toMatch(/^That reply could not be used: no JSON object was found in it/);
    expect(last[4]?.content).toMatch(
      /^That reply could not be used: "resolutions" has no text for conflict 1/,
    );
    expect(scripted.calls.map((c) => c.request.refresh ?? false)).toEqual([false, true, true]);
  });

  it('refuses unknown conflict numbers, slot lines and a resolution that breaks a keep block or placeholder', async () => {
    const bad = [
      { hypothesis: 'h', resolutions: { '1': 'x', '2': 'y' } },
      { hypothesis: 'h', resolutions: { '1': '[[conflict 1]]' } },
      { hypothesis: 'h', resolutions: { '1': 'Keep it short for {{someone}}.' } },
    ];
    const { client, scripted } = scriptedClient(({ index }) => JSON.stringify(bad[index]));
    const result = await proposeMerge(
      input({ client, b: { id: 'p5', prompt: THEIRS_CONFLICTING, hypothesis: 'h' } }),
    );
    expect(result.ok).toBe(false);
    const problems = scripted.calls.slice(1).map((c) => c.request.messages.at(-1)?.content.split('\n')[0]);
    expect(problems).toEqual([
      'That reply could not be used: "resolutions" names "2", which is not a conflict; the conflicts are 1',
      'That reply could not be used: the text for conflict 1 holds a [[conflict N]] line; write only the text that replaces it',
    ]);
    expect(!result.ok && result.message).toMatch(
      /^the merged prompt breaks a rule: your prompt adds \{\{someone\}\}/,
    );
  });

  it('asks again when the resolution gives back one member unchanged', async () => {
    const replies = [
      { hypothesis: 'Ours is better.', resolutions: { '1': 'Keep it under 120 words.' } },
      { hypothesis: 'Both.', resolutions: { '1': 'Keep it under 120 words.\nUse three sentences.' } },
    ];
    const { client, scripted } = scriptedClient(({ index }) => JSON.stringify(replies[index]));
    const result = await proposeMerge(
      input({ client, b: { id: 'p5', prompt: THEIRS_CONFLICTING, hypothesis: 'h' } }),
    );
    expect(result.ok && result.attempts).toBe(2);
    expect(scripted.calls[1]?.request.messages.at(-1)?.content).toMatch(/the merged prompt is p3 unchanged/);
  });

  it('fails as a duplicate, with no call, when a clean merge was tried before or adds nothing', async () => {
    const { client, scripted } = scriptedClient(() => 'unused');
    const merged = (await proposeMerge(input({ client }))) as { prompt: string };
    const tried = await proposeMerge(input({ client, triedHashes: new Set([hashPrompt(merged.prompt)]) }));
    expect(tried).toMatchObject({ ok: false, reason: 'duplicate', attempts: 0, conflicts: 0 });
    expect(!tried.ok && tried.message).toBe(
      'clean merge, no model call: the merged prompt repeats one already tried in this run',
    );
    // b's only edit is already in a: the merge is a unchanged.
    const subsumed = await proposeMerge(input({ client, b: { id: 'p5', prompt: OURS, hypothesis: 'h' } }));
    expect(subsumed).toMatchObject({ ok: false, reason: 'duplicate' });
    expect(!subsumed.ok && subsumed.message).toMatch(/the merged prompt is p3 unchanged/);
    expect(scripted.calls).toHaveLength(0);
  });

  it('holds the merge to the longer member’s length limit', async () => {
    const { client } = scriptedClient(() => 'unused');
    const long = `${ANCESTOR}\n${'More detail. '.repeat(4).trim()}`;
    const other = ANCESTOR.replace('Be friendly.', `Be friendly. ${'Add warmth. '.repeat(4).trim()}`);
    const result = await proposeMerge(
      input({
        client,
        a: { id: 'p3', prompt: long, hypothesis: 'h' },
        b: { id: 'p5', prompt: other, hypothesis: 'h' },
        maxGrowth: 1.05,
      }),
    );
    expect(result).toMatchObject({ ok: false, reason: 'invalid', attempts: 0 });
    expect(!result.ok && result.message).toMatch(/the limit is \d+ \(1\.05 × the longer member’s \d+\)/);
  });

  it('reports a provider failure as data and rethrows one that stops the run', async () => {
    const failing = scriptedClient(() => {
      throw new ProviderError('bad_request', 'model not found');
    });
    const conflicting = { id: 'p5', prompt: THEIRS_CONFLICTING, hypothesis: 'h' };
    const result = await proposeMerge(input({ client: failing.client, b: conflicting }));
    expect(result).toMatchObject({ ok: false, reason: 'provider', attempts: 1, conflicts: 1 });
    await pool?.close();
    const stopping = scriptedClient(() => {
      throw new ProviderError('auth', 'bad key');
    });
    await expect(proposeMerge(input({ client: stopping.client, b: conflicting }))).rejects.toThrow(/bad key/);
  });

  it('merges edits in different parts, and resolves a conflict in the part it is in', async () => {
    const names = ['system', 'messages[1]'];
    const doc = (system: string, user: string) => joinPartTexts({ system, 'messages[1]': user });
    const parts = { optimised: names, fixed: [], placeholders: ['name'] };
    const ancestor = doc('You write emails.', 'Write to {{name}}.\nBe brief.');
    const ours = doc('You write sales emails.', 'Write to {{name}}.\nBe brief.');
    const theirs = doc('You write emails.', 'Write to {{name}}.\nBe brief and warm.');
    const client = simClient();
    const clean = await proposeMerge(
      input({
        client,
        parts,
        ancestor: { id: 'p0', prompt: ancestor },
        a: { id: 'p1', prompt: ours, hypothesis: 'h1' },
        b: { id: 'p2', prompt: theirs, hypothesis: 'h2' },
      }),
    );
    expect(clean).toMatchObject({
      ok: true,
      conflicts: 0,
      prompt: doc('You write sales emails.', 'Write to {{name}}.\nBe brief and warm.'),
    });

    const oursUser = doc('You write emails.', 'Write to {{name}}.\nBe very brief.');
    const resolved = await proposeMerge(
      input({
        client,
        parts,
        ancestor: { id: 'p0', prompt: ancestor },
        a: { id: 'p1', prompt: oursUser, hypothesis: 'h1' },
        b: { id: 'p2', prompt: theirs, hypothesis: 'h2' },
      }),
    );
    expect(resolved).toMatchObject({
      ok: true,
      conflicts: 1,
      prompt: doc('You write emails.', 'Write to {{name}}.\nBe very brief.\nBe brief and warm.'),
    });
    expect(resolved.ok && resolved.resolved[0]?.part).toBe('messages[1]');
  });
});
