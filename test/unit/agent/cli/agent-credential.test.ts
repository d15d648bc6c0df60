import { describe, expect, it } from 'vitest';
import { agentCredentialProblem, agentUpstream } from '../../../../src/agent/cli/agent-credential.js';

describe('agentCredentialProblem', () => {
  it('accepts the API key the proxy adds, and sends it where the base URL says', () => {
    expect(agentCredentialProblem({ ANTHROPIC_API_KEY: 'sk-a' }, 'claude')).toBeUndefined();
    expect(
      agentUpstream('codex', { OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }),
    ).toEqual({
      api: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      key: 'sk-o',
    });
    expect(agentUpstream('claude', { ANTHROPIC_API_KEY: 'sk-a' })?.baseUrl).toBe('https://api.anthropic.com');
  });

  it("refuses a CLI's own login, saying which key works and why", () => {
    expect(agentCredentialProblem({ CODEX_HOME: '/home/u/.codex' }, 'codex')).toMatch(
      /^Codex agent runs need OPENAI_API_KEY .*`codex login`.*copied into the agent's HOME/,
    );
    expect(agentCredentialProblem({ ANTHROPIC_API_KEY: '' }, 'claude')).toMatch(
      /ANTHROPIC_API_KEY.*`claude auth login`/,
    );
  });
});
