// The CLI adapters as plain model calls: what argv and environment they build, and
// how a CLI's reported API failure is classified.
import { describe, expect, it } from 'vitest';
import {
  buildClaudeArgs,
  buildClaudeEnv,
  parseClaudeResult,
} from '../../../../src/providers/adapters/claude-cli.js';
import {
  buildCodexArgs,
  CODEX_NO_SYSTEM_INSTRUCTIONS,
  codexInstructions,
  findCodexWarnings,
} from '../../../../src/providers/adapters/codex-cli.js';
import { kindOfStatus } from '../../../../src/providers/http/classify-http-error.js';
import { ProviderError } from '../../../../src/providers/types.js';

const claude = { provider: 'claude-cli' as const };

describe('claude-cli without Claude Code agent prompt, retries or side traffic', () => {
  it('always passes --system-prompt, empty when the role has no system prompt', () => {
    for (const system of [undefined, '']) {
      const args = buildClaudeArgs(claude, system);
      const at = args.indexOf('--system-prompt');
      expect(at).toBeGreaterThan(-1);
      expect(args[at + 1]).toBe('');
    }
  });

  it('turns off its retries, nonessential traffic and auto memory over the user environment', () => {
    const env = buildClaudeEnv({ PATH: '/bin', CLAUDE_CODE_MAX_RETRIES: '10' });
    expect(env).toMatchObject({
      PATH: '/bin',
      CLAUDE_CODE_MAX_RETRIES: '0',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    });
  });

  const failed = (fields: Record<string, unknown>): ProviderError => {
    const stdout = JSON.stringify({ type: 'result', subtype: 'success', is_error: true, ...fields });
    const parsed = parseClaudeResult(stdout, claude, 'L');
    expect(parsed).toBeInstanceOf(ProviderError);
    return parsed as ProviderError;
  };

  it.each([
    [401, 'Failed to authenticate. API Error: 401 nope', 'auth'],
    [403, 'forbidden', 'auth'],
    [429, 'API Error: Request rejected · nope', 'rate_limit'],
    [529, 'Overloaded', 'server'],
    [500, 'boom', 'server'],
    [400, 'Your credit balance is too low to access the Anthropic API', 'credit'],
    [400, 'prompt is too long', 'bad_request'],
    [404, 'model: claude-nope', 'bad_request'],
  ])('api_error_status %i (%s) is %s', (status, result, kind) => {
    expect(failed({ api_error_status: status, result }).kind).toBe(kind);
  });

  it('reads the wording when there is no status, and a billing error type as credit', () => {
    expect(failed({ api_error_status: null, result: 'Invalid API key · Please run /login' }).kind).toBe(
      'auth',
    );
    expect(failed({ api_error_status: 400, api_error_type: 'billing_error', result: 'x' }).kind).toBe(
      'credit',
    );
  });
});

describe('codex-cli without Codex agent instructions or tools', () => {
  it('passes the instructions file and turns shell, web search, sub-agents, goals, images and skills off', () => {
    const args = buildCodexArgs({ provider: 'codex-cli' }, '/tmp/x/instructions.md');
    const settings = args.flatMap((arg, i) => (args[i - 1] === '-c' ? [arg] : []));
    expect(settings).toEqual([
      'model_instructions_file="/tmp/x/instructions.md"',
      'features.shell_tool=false',
      'web_search="disabled"',
      'features.multi_agent=false',
      'features.goals=false',
      'features.view_image=false',
      'skills.include_instructions=false',
      'tools.experimental_request_user_input.enabled=false',
      'include_permissions_instructions=false',
      'include_environment_context=false',
      'features.plugins=false',
      'analytics.enabled=false',
      'model_provider="autoresearch"',
      'model_providers.autoresearch.name="OpenAI"',
      'model_providers.autoresearch.wire_api="responses"',
      'model_providers.autoresearch.requires_openai_auth=true',
      'model_providers.autoresearch.request_max_retries=0',
      'model_providers.autoresearch.stream_max_retries=0',
    ]);
    expect(args.some((arg) => arg.startsWith('developer_instructions'))).toBe(false);
  });

  it('writes the system prompt as is, and a neutral line when there is none (Codex refuses an empty file)', () => {
    expect(codexInstructions('be terse')).toBe('be terse');
    expect(codexInstructions(undefined)).toBe(CODEX_NO_SYSTEM_INSTRUCTIONS);
    expect(codexInstructions('  \n')).toBe(CODEX_NO_SYSTEM_INSTRUCTIONS);
  });

  it('finds "ignoring unrecognized configuration" notices in events and on stderr, once each', () => {
    const notice =
      'Codex is ignoring 2 unrecognized configuration settings. Check for typos or deprecated settings.\n  session-flags: `not_a_key` is ignored.';
    const stdout = [
      { type: 'item.completed', item: { type: 'error', message: notice } },
      { type: 'item.completed', item: { type: 'error', message: notice } },
      { type: 'item.completed', item: { type: 'error', message: 'Model metadata for `x` not found.' } },
      {
        type: 'item.completed',
        item: { type: 'agent_message', text: 'ignoring unrecognized configuration' },
      },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(
      findCodexWarnings(stdout, 'WARNING: ignoring unrecognized configuration key `y`\nother\n'),
    ).toEqual([
      'Codex is ignoring 2 unrecognized configuration settings. Check for typos or deprecated settings. session-flags: `not_a_key` is ignored.',
      'WARNING: ignoring unrecognized configuration key `y`',
    ]);
    expect(findCodexWarnings('', '')).toEqual([]);
  });
});

describe('kindOfStatus', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [402, 'credit'],
    [429, 'rate_limit'],
    [408, 'server'],
    [503, 'server'],
    [400, 'bad_request'],
  ])('%i → %s', (status, kind) => {
    expect(kindOfStatus(status)).toBe(kind);
  });
});
