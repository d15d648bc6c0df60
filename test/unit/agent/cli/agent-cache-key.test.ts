import { describe, expect, it } from 'vitest';
import {
  agentCacheKey,
  agentHostPaths,
  agentKeyMaterial,
} from '../../../../src/agent/cli/agent-cache-key.js';

const context = (workspace = '/tmp/a/ws-1', root = '/tmp/x/sbx-1') => ({
  hostPaths: agentHostPaths(workspace, { root, home: `${root}/h-1` }),
  sampleIndex: 0,
});

const body = (session: string, output: string, workspace: string) => ({
  model: 'claude-sonnet-4-5',
  metadata: { user_id: `{"session_id":"${session}"}` },
  system: [{ type: 'text', text: `Today's date: 2026-12-03. Primary working directory: ${workspace}` }],
  messages: [
    { role: 'user', content: 'Do the task.' },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: output }] },
  ],
});

describe('agentCacheKey', () => {
  it('leaves out session ids, dates, times, durations and host paths', () => {
    const first = body(
      's-1',
      'Thu Dec  3 09:44:08 UTC 2026\n-rw-r--r-- 1 nobody 8 Dec  3 09:44 a.txt',
      '/tmp/a/ws-1',
    );
    const later = body(
      's-2',
      'Fri Dec  4 10:01:00 UTC 2026\n-rw-r--r-- 1 nobody 8 Dec  4 10:01 a.txt',
      '/tmp/a/ws-2',
    );
    expect(agentCacheKey('/v1/messages', first, context(), 0)).toBe(
      agentCacheKey('/v1/messages', later, context('/tmp/a/ws-2', '/tmp/x/sbx-2'), 0),
    );
    const material = JSON.stringify(agentKeyMaterial('/v1/messages', first, context()));
    expect(material).toContain('Primary working directory: /workspace');
    expect(material).not.toContain('session');
  });

  it("leaves out Codex's per-call ids and shell-output bookkeeping", () => {
    const codex = (n: string, ms: string) => ({
      prompt_cache_key: n,
      client_metadata: { turn_id: n },
      input: [
        { type: 'message', id: `msg_${n}`, role: 'user', content: [{ type: 'input_text', text: 'go' }] },
        {
          type: 'function_call_output',
          id: `fco_${n}`,
          call_id: 'call_0',
          output: `Chunk ID: ${n}\nWall time: ${ms} seconds\nOriginal token count: ${n.length}\nOutput:\nok`,
          internal_chat_message_metadata_passthrough: { create_time: 1796291284.05 },
        },
      ],
    });
    expect(agentCacheKey('/v1/responses', codex('abc123', '0.0012'), context(), 0)).toBe(
      agentCacheKey('/v1/responses', codex('def4567', '1.5'), context(), 0),
    );
  });

  it('keeps what the agent was asked, the sample and the occurrence apart', () => {
    const base = body('s', 'out', '/tmp/a/ws-1');
    const key = agentCacheKey('/v1/messages', base, context(), 0);
    const asked = { ...base, messages: [{ role: 'user', content: 'Do another task.' }] };
    expect(agentCacheKey('/v1/messages', asked, context(), 0)).not.toBe(key);
    expect(agentCacheKey('/v1/messages', base, { ...context(), sampleIndex: 1 }, 0)).not.toBe(key);
    expect(agentCacheKey('/v1/messages', base, context(), 1)).not.toBe(key);
  });
});
