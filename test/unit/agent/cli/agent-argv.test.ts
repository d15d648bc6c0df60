import { describe, expect, it } from 'vitest';
import type { AgentRunRequest } from '../../../../src/agent/agent-run.js';
import { buildClaudeAgentArgs, claudeAgentEnv } from '../../../../src/agent/cli/claude-agent-argv.js';
import { buildCodexAgentArgs, unknownCodexTools } from '../../../../src/agent/cli/codex-agent-argv.js';

const request = (over: Partial<AgentRunRequest> = {}): AgentRunRequest => ({
  agent: 'claude',
  workspace: '/tmp/ws',
  task: '--looks-like-a-flag',
  limits: { maxTurns: 7, timeoutMs: 1000 },
  ...over,
});

describe('buildClaudeAgentArgs', () => {
  it('streams events with permissions bypassed, its own turn limit, and the task after --', () => {
    const args = buildClaudeAgentArgs(request({ model: 'sonnet', appendSystemPrompt: 'Be careful.' }));
    expect(args.slice(0, 7)).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      '--max-turns',
      '7',
    ]);
    expect(args).toEqual(
      expect.arrayContaining(['--model', 'sonnet', '--append-system-prompt', 'Be careful.']),
    );
    expect(args.slice(-2)).toEqual(['--', '--looks-like-a-flag']);
    expect(claudeAgentEnv()).toMatchObject({ IS_SANDBOX: '1', CLAUDE_CODE_MAX_RETRIES: '0' });
  });

  it('makes the allow-list the tools that exist, not only the approved ones', () => {
    const args = buildClaudeAgentArgs(
      request({ limits: { maxTurns: 1, timeoutMs: 1, allowedTools: ['Read', 'Write'] } }),
    );
    expect(args).toEqual(expect.arrayContaining(['--tools=Read,Write', '--allowedTools=Read,Write']));
  });
});

describe('buildCodexAgentArgs', () => {
  it("bypasses Codex's approvals and sandbox and points its provider at the proxy", () => {
    const args = buildCodexAgentArgs(
      request({ agent: 'codex', model: 'gpt-5.5' }),
      'http://127.0.0.1:41414/v1',
    );
    expect(args.slice(0, 3)).toEqual(['exec', '--json', '--dangerously-bypass-approvals-and-sandbox']);
    expect(args).toEqual(expect.arrayContaining(['-m', 'gpt-5.5']));
    expect(args).toContain('model_providers.autoresearch.base_url="http://127.0.0.1:41414/v1"');
    expect(args).toContain('model_providers.autoresearch.wire_api="responses"');
    expect(args.slice(-2)).toEqual(['--', '--looks-like-a-flag']);
  });

  it('turns off the tools an allow-list leaves out, and names the ones it cannot', () => {
    const limits = { maxTurns: 1, timeoutMs: 1, allowedTools: ['exec_command'] };
    const args = buildCodexAgentArgs(request({ agent: 'codex', limits }), 'http://p/v1');
    expect(args).toContain('features.view_image=false');
    expect(args).not.toContain('features.shell_tool=false');
    expect(unknownCodexTools(['exec_command', 'apply_patch', 'Bash'])).toEqual(['Bash']);
  });
});
