/**
 * The judge calls the runner batches (docs/design/cost-engine.md) are the very requests the
 * built-in judge's calls reach the run's client with, through the real loopback proxy: for each
 * member of a panel (an OpenAI member with two samples, an Anthropic one), with inputs, so the
 * sandboxed judge finds every batched answer under its own cache key. An agent case's folder,
 * batched from memory, is asked exactly as the judge asks it after reading the folder back from its
 * sandbox.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planJudgeLayout } from '../../src/judge/judge-layout.js';
import { readOutputsFolder } from '../../src/judge/read-text-outputs.js';
import { outputFolderOf } from '../../src/protocol/output-folder.js';
import { writeSandboxFiles } from '../../src/sandbox/sandbox.js';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { ModelEntry } from '../../src/experiment/schema.js';
import type { Experiment, Rubric } from '../../src/experiment/types.js';
import { runBuiltinJudge } from '../../src/judge/builtin-judge.js';
import { judgeBatchCalls } from '../../src/judge/judge-batch-calls.js';
import { type ModelProxy, startModelProxy } from '../../src/sandbox/model-proxy.js';
import { proxiedSettings, settingsToEntry } from '../../src/protocol/model-settings.js';
import { withProxyHints } from '../../src/sandbox/proxy-hints.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import type { CompletionRequest, ModelClient } from '../../src/providers/types.js';

const RUBRIC = parseRubric(
  'rubric.md',
  '# Release notes\n\n## Criteria\n\n### Clarity\nPlain words.\n\n### Accuracy\n- [ ] names the change\n- [ ] no invented numbers\n',
).rubric as Rubric;
const OUTPUTS = [
  { text: 'Exports are now twice as fast.', input: 'change: faster exports' },
  { text: 'Dark mode arrives.\n\n{"tool_calls":[]}', input: 'change: dark mode' },
];
const MEMBERS: ModelEntry[] = [
  { provider: 'openai', model: 'gpt-4o', samples: 2, temperature: 0.3 },
  { provider: 'anthropic', model: 'claude-sonnet-4-5', temperature: 0 },
];

const proxies: ModelProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** A run's judge client that keeps what it is asked and answers as a judge would. */
function recordingClient(entry: ModelEntry, seen: CompletionRequest[]): ModelClient {
  return {
    role: 'judge',
    entry,
    simulated: false,
    concurrency: 4,
    async complete(request) {
      const { signal: _s, headers: _h, ...asked } = request;
      seen.push(asked);
      const text = JSON.stringify({
        criteria_scores: { clarity: 4 },
        items: { accuracy: [true, false] },
        reasoning: 'Fine.',
      });
      return { text, usage: { inputTokens: 10, outputTokens: 5 }, costUsd: 0, latencyMs: 1 };
    },
  };
}

describe('judgeBatchCalls', () => {
  it('builds, per panel member, exactly what the built-in judge sends through the proxy', async () => {
    const experiment = {
      rubric: RUBRIC,
      models: { judge: { panel: MEMBERS, aggregate: 'median' } },
    } as unknown as Experiment;
    const batched = judgeBatchCalls(experiment, OUTPUTS);
    for (const [member, entry] of MEMBERS.entries()) {
      const seen: CompletionRequest[] = [];
      const proxy = await startModelProxy({ client: recordingClient(entry, seen) });
      proxies.push(proxy);
      const settings = proxiedSettings(entry, {
        timeoutMs: 10_000,
        endpointLimit: 2,
        samples: entry.samples ?? 1,
      });
      const judgeEntry: ModelEntry = {
        ...settingsToEntry(settings),
        base_url: settings.provider === 'openai' ? proxy.openaiBaseUrl : proxy.anthropicBaseUrl,
        api_key_env: 'PROXY_TOKEN',
      };
      const pool = createModelPool({
        models: { judge: judgeEntry },
        concurrency: 4,
        env: { PROXY_TOKEN: proxy.token },
      });
      try {
        const result = await runBuiltinJudge({
          outputs: OUTPUTS.map((o, i) => ({ file: `output_0${i}.txt`, ...o })),
          rubricText: RUBRIC.text,
          criteria: RUBRIC.criteria.map((c) => c.key),
          checklists: { accuracy: ['names the change', 'no invented numbers'] },
          model: withProxyHints(pool.client('judge')),
          samples: settings.samples ?? 1,
        });
        expect(result.ok).toBe(true);
      } finally {
        await pool.close();
      }
      const mine = batched.filter((call) => call.member === member);
      expect(mine).toHaveLength(OUTPUTS.length * (entry.samples ?? 1));
      const byJson = (requests: CompletionRequest[]) => requests.map((r) => JSON.stringify(r)).sort();
      expect(byJson(mine.map((call) => call.request))).toEqual(byJson(seen));
    }
  });

  it('asks of an agent case’s folder, read back from the sandbox, what the batch built from memory', async () => {
    const entry: ModelEntry = { provider: 'anthropic', model: 'claude-sonnet-4-5', temperature: 0 };
    const folder = outputFolderOf(
      'Wrote the notes.',
      [
        {
          path: 'RELEASE_NOTES.md',
          status: 'created',
          kind: 'file',
          size: 24,
          text: '## Fixed\n- Faster export.\n',
        },
        { path: 'logo.png', status: 'created', kind: 'file', size: 300, skipped: 'not UTF-8 text' },
        { path: 'OLD.md', status: 'deleted', kind: 'file' },
      ],
      false,
    );
    const outputs = [
      { caseId: 'a', sample: 0, text: 'the checks’ text', folder, input: 'change: faster exports' },
    ];
    const experiment = { rubric: RUBRIC, models: { judge: entry } } as unknown as Experiment;
    const batched = judgeBatchCalls(experiment, outputs);
    const dir = await mkdtemp(join(tmpdir(), 'judge-folder-batch-'));
    const seen: CompletionRequest[] = [];
    const proxy = await startModelProxy({ client: recordingClient(entry, seen) });
    proxies.push(proxy);
    const settings = proxiedSettings(entry, { timeoutMs: 10_000, endpointLimit: 2, samples: 1 });
    const pool = createModelPool({
      models: {
        judge: { ...settingsToEntry(settings), base_url: proxy.anthropicBaseUrl, api_key_env: 'PROXY_TOKEN' },
      },
      concurrency: 4,
      env: { PROXY_TOKEN: proxy.token },
    });
    try {
      await writeSandboxFiles(dir, planJudgeLayout(outputs, RUBRIC.text, 1).files);
      const read = await readOutputsFolder(dir);
      expect(read.map((o) => [o.file, o.folder !== undefined, o.input])).toEqual([
        ['output_00', true, 'change: faster exports'],
      ]);
      const result = await runBuiltinJudge({
        outputs: read,
        rubricText: RUBRIC.text,
        criteria: RUBRIC.criteria.map((c) => c.key),
        checklists: { accuracy: ['names the change', 'no invented numbers'] },
        model: withProxyHints(pool.client('judge')),
      });
      expect(result.ok).toBe(true);
    } finally {
      await pool.close();
      await rm(dir, { recursive: true, force: true });
    }
    expect(batched.map((call) => JSON.stringify(call.request))).toEqual(seen.map((r) => JSON.stringify(r)));
    expect(JSON.stringify(seen)).toContain('- Faster export.');
  });
});
