/**
 * The environment a judge or grader process gets (docs/design/judge-protocol.md): an allow-list of
 * harmless basics, HOME pointing at an empty folder, and — when the runner serves its model calls —
 * the loopback proxy's URLs with the one-time token as the key. The user's API keys and anything
 * else in the runner's environment never reach it.
 */
import { basename } from 'node:path';

const ALLOWED = new Set([
  'PATH',
  'Path',
  'PATHEXT',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'SystemRoot',
  'SYSTEMROOT',
  'SystemDrive',
  'windir',
  'ComSpec',
  'NO_COLOR',
]);

/** Where the user's Claude Code / Codex CLI keep their login, when the user moved it. */
const CLI_CONFIG_VARS = ['CLAUDE_CONFIG_DIR', 'CODEX_HOME'];

export interface ProxyAccess {
  /** Anthropic convention: no `/v1`. */
  anthropicBaseUrl: string;
  /** OpenAI convention: with `/v1`. */
  openaiBaseUrl: string;
  token: string;
}

export interface SandboxEnvOptions {
  parent: NodeJS.ProcessEnv;
  home: string;
  proxy?: ProxyAccess;
  /**
   * The program is the user's `claude` / `codex` CLI running as an agent: it keeps the
   * user's HOME path (and config-dir variables), where it looks for its login (under `os`
   * isolation, a private copy of it: cli-login-copy.ts).
   */
  cliAgent?: boolean;
}

export function buildSandboxEnv(options: SandboxEnvOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.parent)) {
    if (value === undefined) continue;
    if (ALLOWED.has(name) || name.startsWith('LC_')) env[name] = value;
  }
  const realHome = options.parent['HOME'] ?? options.parent['USERPROFILE'];
  const home = options.cliAgent === true && realHome !== undefined ? realHome : options.home;
  env['HOME'] = home;
  env['USERPROFILE'] = home;
  if (options.cliAgent === true) {
    for (const name of CLI_CONFIG_VARS) {
      const value = options.parent[name];
      if (value !== undefined) env[name] = value;
    }
  }
  if (options.proxy !== undefined) {
    env['ANTHROPIC_BASE_URL'] = options.proxy.anthropicBaseUrl;
    env['OPENAI_BASE_URL'] = options.proxy.openaiBaseUrl;
    env['ANTHROPIC_API_KEY'] = options.proxy.token;
    env['OPENAI_API_KEY'] = options.proxy.token;
  }
  return env;
}

/** Whether argv starts the user's Claude Code or Codex CLI (which keeps its own login). */
export function isCliAgentCommand(argv: readonly string[]): boolean {
  const program = argv[0];
  if (program === undefined) return false;
  const name = basename(program)
    .toLowerCase()
    .replace(/\.(exe|cmd|bat)$/, '');
  return name === 'claude' || name === 'codex';
}
