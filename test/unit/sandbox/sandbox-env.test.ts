import { describe, expect, it } from 'vitest';
import { buildSandboxEnv, isCliAgentCommand } from '../../../src/sandbox/sandbox-env.js';

const parent = {
  PATH: '/usr/bin',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C',
  TZ: 'UTC',
  TMPDIR: '/tmp',
  HOME: '/home/alice',
  ANTHROPIC_API_KEY: 'sk-ant-user-secret',
  OPENAI_API_KEY: 'sk-user-secret',
  MY_KEY: 'other-secret',
  AUTORESEARCH_RUNS_DIR: '/work/runs',
  NODE_OPTIONS: '--require evil.js',
  CLAUDE_CONFIG_DIR: '/home/alice/.claude',
};

describe('buildSandboxEnv', () => {
  it('keeps only the allow-list and points HOME at the empty folder', () => {
    const env = buildSandboxEnv({ parent, home: '/tmp/h-1' });
    expect(env).toEqual({
      PATH: '/usr/bin',
      LANG: 'en_US.UTF-8',
      LC_ALL: 'C',
      TZ: 'UTC',
      TMPDIR: '/tmp',
      HOME: '/tmp/h-1',
      USERPROFILE: '/tmp/h-1',
    });
  });

  it('gives the proxy URLs and the one-time token, never the user keys', () => {
    const env = buildSandboxEnv({
      parent,
      home: '/tmp/h-1',
      proxy: {
        anthropicBaseUrl: 'http://127.0.0.1:9',
        openaiBaseUrl: 'http://127.0.0.1:9/v1',
        token: 'arp-tok',
      },
    });
    expect(env['ANTHROPIC_BASE_URL']).toBe('http://127.0.0.1:9');
    expect(env['OPENAI_BASE_URL']).toBe('http://127.0.0.1:9/v1');
    expect(env['ANTHROPIC_API_KEY']).toBe('arp-tok');
    expect(env['OPENAI_API_KEY']).toBe('arp-tok');
    expect(JSON.stringify(env)).not.toMatch(/secret|evil|runs/);
  });

  it('lets a claude/codex agent keep the real HOME and its config dir', () => {
    const env = buildSandboxEnv({ parent, home: '/tmp/h-1', cliAgent: true });
    expect(env['HOME']).toBe('/home/alice');
    expect(env['CLAUDE_CONFIG_DIR']).toBe('/home/alice/.claude');
    expect(env['ANTHROPIC_API_KEY']).toBeUndefined();
  });
});

describe('isCliAgentCommand', () => {
  it('recognises the claude and codex binaries by name', () => {
    expect(isCliAgentCommand(['claude', '-p', 'x'])).toBe(true);
    expect(isCliAgentCommand(['/usr/local/bin/codex', 'exec'])).toBe(true);
    expect(isCliAgentCommand(['C:\\bin\\claude.exe'])).toBe(process.platform === 'win32');
    expect(isCliAgentCommand(['node', 'claude.mjs'])).toBe(false);
    expect(isCliAgentCommand([])).toBe(false);
  });
});
