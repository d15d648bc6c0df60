/**
 * A merge's conflicts resolved over the wire (docs/design/pareto-search.md): proposeMerge with a
 * mutator on the fake LLM server (Anthropic and OpenAI-compatible formats, replies from the sim), a
 * clean merge that never reaches the server, and a reply the server garbles once, sent back with
 * the reason and answered again.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joinPartTexts } from '../../src/experiment/part-texts.js';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { extractMergeBlock } from '../../src/protocol/merge-request.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import { MERGE_SYSTEM_PROMPT } from '../../src/search/merge-prompt.js';
import { proposeMerge } from '../../src/search/propose-merge.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const env = { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-test' };
const sim = respondWith(createSimProvider({ provider: 'sim' }));
let server: FakeLlmServer;
let pool: ModelPool | undefined;

beforeAll(async () => {
  server = await startFakeLlmServer({ respond: sim });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.configure({ respond: sim });
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function mutator(entry: ModelEntry) {
  pool = createModelPool({ models: { mutator: { max_retries: 0, ...entry } }, concurrency: 2, env });
  return pool.client('mutator');
}

const NAMES = ['system', 'messages[0]'];
const doc = (system: string, user: string) => joinPartTexts({ system, 'messages[0]': user });
const PARTS = { optimised: NAMES, fixed: [], placeholders: ['name', 'product'] };
const ANCESTOR = doc(
  'You write sales emails.\nBe brief.',
  'Write to {{name}} about {{product}}.\nEnd politely.',
);
const OURS = doc(
  'You write sales emails.\nBe brief.',
  'Write to {{name}} about {{product}}.\nEnd with one question.',
);
const THEIRS = doc(
  'You write sales emails for a bakery.\nBe brief.',
  'Write to {{name}} about {{product}}.\nEnd with a P.S. about delivery.',
);

describe('proposeMerge through the fake LLM server', () => {
  for (const [api, entry] of [
    [
      'anthropic',
      () => ({ provider: 'anthropic', model: 'claude-sonnet-4-5', base_url: server.anthropicBaseUrl }),
    ],
    ['openai', () => ({ provider: 'openai', model: 'gpt-4o-mini', base_url: server.openaiBaseUrl })],
  ] as const)
    it(`resolves a conflict in one part and merges the other cleanly (${api})`, async () => {
      const result = await proposeMerge({
        candidate: 1,
        ancestor: { id: 'p0', prompt: ANCESTOR },
        a: { id: 'p2', prompt: OURS, hypothesis: 'A closing question raises replies.' },
        b: { id: 'p4', prompt: THEIRS, hypothesis: 'Naming the bakery and delivery makes it concrete.' },
        triedHashes: new Set(),
        maxGrowth: 2,
        parts: PARTS,
        client: mutator(entry() as ModelEntry),
      });
      expect(result).toMatchObject({
        ok: true,
        conflicts: 1,
        attempts: 1,
        prompt: doc(
          'You write sales emails for a bakery.\nBe brief.',
          'Write to {{name}} about {{product}}.\nEnd with one question.\nEnd with a P.S. about delivery.',
        ),
      });
      expect(server.log).toHaveLength(1);
      const body = server.log[0]?.raw ?? '';
      expect(body).toContain(JSON.stringify(MERGE_SYSTEM_PROMPT).slice(1, 60));
      const sent = server.log[0]?.body as { messages: { role: string; content: unknown }[] };
      const block = extractMergeBlock(textOf(sent.messages.find((m) => m.role === 'user')?.content));
      expect(block?.conflicts).toEqual([
        {
          id: 1,
          part: 'messages[0]',
          ancestor: 'End politely.',
          ours: 'End with one question.',
          theirs: 'End with a P.S. about delivery.',
        },
      ]);
      // Only the part holding the conflict is shown, with its slot.
      expect(block?.parts.map((p) => [p.name, p.merged])).toEqual([
        ['messages[0]', 'Write to {{name}} about {{product}}.\n[[conflict 1]]'],
      ]);
    });

  it('never calls the server for a clean merge', async () => {
    const theirsSystemOnly = doc(
      'You write sales emails for a bakery.\nBe brief.',
      'Write to {{name}} about {{product}}.\nEnd politely.',
    );
    const result = await proposeMerge({
      candidate: 0,
      ancestor: { id: 'p0', prompt: ANCESTOR },
      a: { id: 'p2', prompt: OURS, hypothesis: 'q' },
      b: { id: 'p4', prompt: theirsSystemOnly, hypothesis: 'b' },
      triedHashes: new Set(),
      maxGrowth: 2,
      parts: PARTS,
      client: mutator({
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        base_url: server.anthropicBaseUrl,
      }),
    });
    expect(result).toMatchObject({ ok: true, conflicts: 0, attempts: 0 });
    expect(server.log).toHaveLength(0);
  });

  it('sends an unusable reply back with the reason and takes the next', async () => {
    let calls = 0;
    server.configure({
      respond: async (req) => {
        calls += 1;
        return calls === 1 ? { text: 'Sure! I would keep both endings.' } : sim(req);
      },
    });
    const result = await proposeMerge({
      candidate: 0,
      ancestor: { id: 'p0', prompt: ANCESTOR },
      a: { id: 'p2', prompt: OURS, hypothesis: 'q' },
      b: { id: 'p4', prompt: THEIRS, hypothesis: 'b' },
      triedHashes: new Set(),
      maxGrowth: 2,
      parts: PARTS,
      client: mutator({
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        base_url: server.anthropicBaseUrl,
      }),
    });
    expect(result).toMatchObject({ ok: true, attempts: 2, conflicts: 1 });
    const retry = server.log[1]?.raw ?? '';
    expect(retry).toContain('That reply could not be used: no JSON object was found in it');
  });
});

/** A message's text, whether sent as a string or as content blocks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as { text?: string }[]).map((b) => b.text ?? '').join('');
}
