/**
 * No drift between the documentation and the tool. Every `autoresearch …` / `npx autoresearch …`
 * line in the ```bash blocks of README.md and docs/*.md, and in the `run:` steps of the
 * example workflows, is run with the built CLI in a temporary copy of a project: models are
 * replaced by `sim` (`--provider sim` / `--model sim`), runs are capped at one iteration, run
 * records go to the project's own runs/ via --runs-dir, `<run-id>` (and `<other-run-id>`) becomes a run made here, and
 * `validate --ping` talks to a fake API server on 127.0.0.1. Each must exit as documented
 * (0, the code a trailing `# … exit N` comment names, or 0/1 with a verdict for --fail-under).
 * Commands that run until stopped are stopped once they show they work. Inline `autoresearch …`
 * code spans are checked for their subcommand and flags, and every `--flag` written anywhere in
 * the docs must exist (or be listed below as another program's flag).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CLI_MAIN, cleanEnv, REPO_ROOT, requireBuiltCli } from '../helpers/built-cli.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { createTempRepo, TEST_AUTHOR, type TempRepo } from '../helpers/temp-repo.js';
import { CHECK_TYPE_NAMES } from '../../src/checks/registry.js';
import {
  Budget,
  CaseEntry,
  CheckEntry,
  AgentConfig,
  ExperimentFile,
  JudgePanel,
  ModelEntry,
  Models,
  Price,
  ProgramEntry,
  Search,
  Weights,
} from '../../src/experiment/schema.js';

// ---------------------------------------------------------------- extraction (pure)

interface DocCommand {
  where: string;
  /** The words after `autoresearch`. */
  args: string[];
  /** From a trailing `# … exit N` comment. */
  exit?: number;
  /** Inline code spans are only checked for their subcommand and flags. */
  inline: boolean;
}

type Token = { op: string } | { word: string } | { comment: string };

/** Shell words of one line: quotes, backslashes, operators and a trailing comment. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  const flush = () => {
    if (word !== undefined) tokens.push({ word });
    word = undefined;
  };
  for (let i = 0; i < line.length; ) {
    const c = line[i] as string;
    const op = ['&&', '||', ';', '|'].find((o) => line.startsWith(o, i));
    if (/\s/.test(c)) {
      flush();
      i++;
    } else if (c === '#' && word === undefined) {
      tokens.push({ comment: line.slice(i + 1).trim() });
      break;
    } else if (op) {
      flush();
      tokens.push({ op });
      i += op.length;
    } else if (c === '`' || line.startsWith('$(', i)) {
      throw new Error('command substitution is not supported in documented commands');
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end === -1) throw new Error(`unterminated ${c} quote`);
      word = (word ?? '') + line.slice(i + 1, end).replace(/\\(["\\$`])/g, c === '"' ? '$1' : '\\$1');
      i = end + 1;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[i + 1];
      i += 2;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  flush();
  return tokens;
}

/** The autoresearch commands of one shell line; a line mixing them with other commands is refused. */
function commandsOfLine(line: string, where: string): DocCommand[] {
  const tokens = tokenize(line);
  const comment = tokens.flatMap((t) => ('comment' in t ? [t.comment] : []))[0] ?? '';
  const segments: string[][] = [[]];
  for (const t of tokens) {
    if ('op' in t) segments.push([]);
    else if ('word' in t) segments.at(-1)?.push(t.word);
  }
  const words = segments.filter((s) => s.length > 0);
  const ours = words.filter((s) => s.includes('autoresearch'));
  if (ours.length === 0) return [];
  if (words.length > 1) throw new Error(`${where}: keep \`autoresearch\` alone on its line: ${line}`);
  const segment = ours[0] as string[];
  const start = segment[0] === 'npx' ? 1 : 0;
  if (segment[start] !== 'autoresearch')
    throw new Error(`${where}: \`autoresearch\` must start the command (no env prefixes): ${line}`);
  const exit = /\bexits? (?:with )?(?:code )?(\d+)\b/i.exec(comment);
  return [
    { where, args: segment.slice(start + 1), inline: false, ...(exit ? { exit: Number(exit[1]) } : {}) },
  ];
}

/** Commands in ```bash blocks and in inline code spans of one markdown file. */
function extractFromMarkdown(text: string, file: string): DocCommand[] {
  const out: DocCommand[] = [];
  const lines = text.split('\n');
  let fence: { marker: string; shell: boolean } | undefined;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] as string;
    const where = `${file}:${n + 1}`;
    const open = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (fence === undefined && open) {
      fence = { marker: open[1] as string, shell: /^(bash|sh|shell|console)$/.test(open[2] ?? '') };
      continue;
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence.marker)) fence = undefined;
      else if (fence.shell) {
        let logical = line;
        while (logical.endsWith('\\') && n + 1 < lines.length)
          logical = `${logical.slice(0, -1)} ${lines[++n]}`;
        out.push(...commandsOfLine(logical, where));
      }
      continue;
    }
    for (const span of line.matchAll(/`([^`]+)`/g)) {
      const code = (span[1] as string).trim();
      if (!/^(npx )?autoresearch( |$)/.test(code)) continue;
      const words = code
        .replace(/[[\]]/g, ' ')
        .split(/\s+/)
        .filter((w) => w !== '' && w !== '…' && w !== '...');
      out.push({ where, args: words.slice(words[0] === 'npx' ? 2 : 1), inline: true });
    }
  }
  return out;
}

/** `run:` lines of a GitHub Actions workflow. */
function extractFromWorkflow(text: string, file: string): DocCommand[] {
  const doc = parseYaml(text) as { jobs?: Record<string, { steps?: { run?: string }[] }> };
  const out: DocCommand[] = [];
  for (const job of Object.values(doc.jobs ?? {})) {
    for (const step of job.steps ?? []) {
      for (const line of (step.run ?? '').split('\n')) {
        const at = text.split('\n').findIndex((l) => line.trim() !== '' && l.includes(line.trim()));
        out.push(...commandsOfLine(line, `${file}:${at + 1}`));
      }
    }
  }
  return out;
}

/** Every `--flag` written in a text. */
function flagsIn(text: string): string[] {
  return [...text.matchAll(/(?<![\w-])--[A-Za-z][\w-]*/g)].map((m) => m[0]);
}

// ---------------------------------------------------------------- the CLI's own help

interface CliSurface {
  commands: Map<string, Set<string>>;
  global: Set<string>;
}

function optionsOf(help: string): Set<string> {
  const section = help.split(/^Options:\s*$/m)[1]?.split(/^\S.*:\s*$/m)[0] ?? '';
  return new Set([...section.matchAll(/(?<![\w-])(--?[A-Za-z][\w-]*)/g)].map((m) => m[1] as string));
}

async function readCliSurface(env: NodeJS.ProcessEnv): Promise<CliSurface> {
  const help = async (args: string[]) =>
    (await execa(process.execPath, [CLI_MAIN, ...args, '--help'], { env, extendEnv: false })).stdout;
  const top = await help([]);
  const names = [...(top.split(/^Commands:\s*$/m)[1] ?? '').matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((m) => m[1] as string)
    .filter((name) => name !== 'help');
  const commands = new Map<string, Set<string>>();
  for (const name of names) commands.set(name, optionsOf(await help([name])));
  return { commands, global: optionsOf(top) };
}

/** Problems with one command's subcommand and flags, checked against the help texts. */
function checkAgainstHelp(command: DocCommand, surface: CliSurface): string[] {
  const args = [...command.args];
  while (args[0]?.startsWith('-')) {
    const flag = args.shift() as string;
    if (!surface.global.has(flag.split('=')[0] as string)) return [`unknown global option ${flag}`];
    if (flag === '--runs-dir') args.shift();
  }
  const name = args[0];
  if (name === undefined) return [];
  const own = surface.commands.get(name);
  if (own === undefined) return [`unknown command "${name}"`];
  return args
    .filter((a) => /^--?[A-Za-z]/.test(a))
    .map((a) => a.split('=')[0] as string)
    .filter((flag) => !own.has(flag) && !surface.global.has(flag))
    .map((flag) => `\`autoresearch ${name} --help\` does not list ${flag}`);
}

// ---------------------------------------------------------------- the documents

const MARKDOWN = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const WORKFLOWS = readdirSync(join(REPO_ROOT, 'docs/examples'))
  .filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'))
  .map((f) => `docs/examples/${f}`);
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

const extractionProblems: string[] = [];
const documented: DocCommand[] = [];
for (const file of [...MARKDOWN, ...WORKFLOWS]) {
  try {
    documented.push(
      ...(file.endsWith('.md')
        ? extractFromMarkdown(read(file), file)
        : extractFromWorkflow(read(file), file)),
    );
  } catch (error) {
    extractionProblems.push(error instanceof Error ? error.message : String(error));
  }
}

/** Flags of other programs that the docs show (the CLIs we drive, example scripts). */
const FOREIGN_FLAGS: Record<string, string> = {
  '--output-format': 'claude: passed by the claude-cli provider',
  '--max-turns': 'claude',
  '--tools': 'claude',
  '--strict-mcp-config': 'claude',
  '--setting-sources': 'claude',
  '--no-session-persistence': 'claude',
  '--system-prompt': 'claude',
  '--json-schema': 'claude: structured output, passed by the claude-cli provider',
  '--output-schema': 'codex exec: structured output, passed by the codex-cli provider',
  '--allowedTools': 'claude: the agent-judge example',
  '--permission-mode': 'claude: the agent-judge example',
  '--ephemeral': 'codex exec: passed by the codex-cli provider',
  '--skip-git-repo-check': 'codex exec',
  '--sandbox': 'codex exec',
  '--color': 'codex exec',
  '--max-tokens': 'the example my_model.py in docs/providers.md',
  '--prompt': 'the example run-model.sh in docs/providers.md',
  '--console': 'claude auth login: API billing instead of a subscription',
  '--with-api-key': 'codex login: an API key read from stdin',
};

/**
 * Documented bash commands this test does not run, with the reason. Every entry must still
 * match a documented command (stale entries fail), and its flags are still checked.
 */
const NOT_RUN: { matches: (args: string[]) => boolean; reason: string }[] = [];

// ---------------------------------------------------------------- running them

const CAPPED_ITERATIONS = { run: '1', resume: '+1' } as const;
const PROMPTFOO_CONFIG = `description: Support replies
prompts:
  - "Reply to the customer: {{message}}"
  - "You are a friendly support agent. Customer {{name}} writes: {{message}}. Reply briefly."
providers:
  - openai:gpt-4o-mini
defaultTest:
  vars: { name: there }
  assert:
    - { type: not-icontains, value: as an ai }
tests:
  - vars: { name: Priya, message: "My order 5521 is late." }
    assert:
      - { type: icontains, value: "5521" }
      - { type: llm-rubric, value: Offers to check the tracking }
  - vars: { message: "Can I return a book I started?" }
`;

let repo: TempRepo;
let server: FakeLlmServer;
let env: NodeJS.ProcessEnv;
let surface: CliSurface;
let runId: string;
let runsDir: string;
const detached: number[] = [];
/** Long-running commands not yet stopped: killed after the tests whatever happened. */
const lingering = new Set<ReturnType<typeof execa>>();
const done = new Map<string, string>();

function cli(args: string[], cwd = repo.dir) {
  return execa(process.execPath, [CLI_MAIN, '--runs-dir', runsDir, ...args], {
    cwd,
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
}

/** The argv to run: placeholders filled, models simulated, loops capped. */
function prepare(command: DocCommand): string[] {
  // `<other-run-id>` (compare's second run) is the same run: the test makes one.
  const args = command.args.map((a) => a.replaceAll('<run-id>', runId).replaceAll('<other-run-id>', runId));
  const unknown = args.find((a) => /<[^>]+>/.test(a));
  if (unknown) throw new Error(`${command.where}: no value for the placeholder in "${unknown}"`);
  const name = args[0] ?? '';
  const extra: string[] = [];
  if (['run', 'resume', 'eval', 'calibrate'].includes(name) && !/--provider sim/.test(args.join(' ')))
    extra.push('--provider', 'sim');
  if (name === 'run' || name === 'resume') extra.push('--iterations', CAPPED_ITERATIONS[name]);
  if (name === 'judge' || name === 'grade') extra.push('--model', 'sim');
  return [...args, ...extra];
}

/** Whether a process is still running; a zombie (exited, not yet reaped by init) is not. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

async function waitForExit(pid: number, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (!isRunning(pid)) return;
    if (Date.now() > until) throw new Error(`background run (pid ${pid}) did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Starts a command that runs until stopped, waits until its output shows it works, then stops it. */
async function runUntilReady(args: string[], ready: RegExp, signal: NodeJS.Signals) {
  const child = execa(process.execPath, [CLI_MAIN, '--runs-dir', runsDir, ...args], {
    cwd: repo.dir,
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    all: true,
  });
  lingering.add(child);
  let seen = '';
  const shown = await new Promise<string>((resolve, reject) => {
    child.all?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) resolve(match[1] ?? match[0]);
    });
    child.then((r) => reject(new Error(`exited (${r.exitCode}) before it was ready: ${seen}`)), reject);
  });
  const stop = async () => {
    child.kill(signal);
    const result = await child;
    lingering.delete(child);
    return result;
  };
  return { shown, stop };
}

async function exercise(command: DocCommand, args: string[]): Promise<void> {
  const name = args[0];
  if (name === 'init') {
    const dir = await mkdtemp(join(repo.home, 'init-'));
    const from = args.indexOf('--from');
    if (from !== -1) await writeFile(join(dir, args[from + 1] as string), PROMPTFOO_CONFIG);
    const result = await cli(args, dir);
    expect(result.exitCode, `${command.where}\n${result.stderr}`).toBe(command.exit ?? 0);
    if ((command.exit ?? 0) === 0)
      expect(existsSync(join(dir, 'experiments', args[1] as string, 'experiment.yaml'))).toBe(true);
    return;
  }
  if (name === 'report' && args.includes('--serve')) {
    const served = await runUntilReady(args, /(http:\/\/127\.0\.0\.1:\d+\S*)/, 'SIGTERM');
    const page = await fetch(served.shown);
    const html = await page.text();
    expect((await served.stop()).exitCode).toBe(0);
    expect(page.status).toBe(200);
    expect(html).toContain('<html');
    return;
  }
  if (name === 'watch' && args.length === 1) {
    for (const pid of detached.splice(0)) await waitForExit(pid, 120_000);
    const watching = await runUntilReady(args, /waiting for one to start/, 'SIGINT');
    expect((await watching.stop()).exitCode).toBe(130);
    return;
  }
  const result = await cli(args);
  const why = `${command.where}: autoresearch ${args.join(' ')}\n${result.stderr}`;
  if (command.exit === undefined && (args.includes('--fail-under') || args.includes('--fail-under-kappa'))) {
    expect([0, 1], why).toContain(result.exitCode);
    if (result.exitCode === 1) expect(result.stderr, why).toMatch(/fail-under/);
  } else {
    expect(result.exitCode, why).toBe(command.exit ?? 0);
  }
  // Node's own warnings (a listener "leak", a deprecation) never reach the user's terminal.
  expect(result.stderr, why).not.toMatch(/\(node:\d+\) \w*Warning/);
  if (name === 'run' && args.includes('--detach')) {
    const pid = /pid (\d+)/.exec(result.stderr);
    expect(pid, why).not.toBeNull();
    detached.push(Number(pid?.[1]));
  }
  // apply writes the working tree; later commands expect the committed experiments.
  if (name === 'apply') await repo.git(['checkout', '--', 'experiments']);
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({ respond: () => 'OK' });
  repo = await createTempRepo({
    commit: false,
    config: { 'user.name': TEST_AUTHOR.name, 'user.email': TEST_AUTHOR.email },
  });
  runsDir = join(repo.dir, 'runs');
  env = cleanEnv({
    HOME: repo.home,
    XDG_CONFIG_HOME: join(repo.home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    ANTHROPIC_API_KEY: 'test-key-not-real',
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    OPENAI_API_KEY: 'test-key-not-real',
    OPENAI_BASE_URL: server.openaiBaseUrl,
  });
  for (const dir of ['experiments', 'rubrics', 'docs/examples'])
    await cp(join(REPO_ROOT, dir), repo.path(dir), { recursive: true });
  const init = await cli(['init', 'my-prompt']);
  expect(init.exitCode, init.stderr).toBe(0);
  await repo.git(['add', '--all']);
  await repo.git(['commit', '--quiet', '--no-gpg-sign', '-m', 'project']);
  surface = await readCliSurface(env);
  const first = ['run', 'my-prompt', '--provider', 'sim', '--iterations', '1'];
  const made = await cli(first);
  expect(made.exitCode, made.stderr).toBe(0);
  const folders = readdirSync(runsDir).filter((name) => !name.startsWith('.'));
  expect(folders).toHaveLength(1);
  runId = folders[0] as string;
  done.set(first.join(' '), 'the run this test makes for <run-id>');
}, 180_000);

afterAll(async () => {
  for (const child of lingering) child.kill('SIGKILL');
  for (const pid of detached) await waitForExit(pid, 120_000).catch(() => process.kill(pid, 'SIGKILL'));
  await server?.close();
  await repo?.cleanup();
});

describe('the documentation’s commands', () => {
  it('are all recognised', () => {
    expect(extractionProblems).toEqual([]);
    expect(documented.filter((c) => !c.inline).length).toBeGreaterThan(20);
  });

  it('use only subcommands and flags the CLI lists in --help', () => {
    const problems = documented.flatMap((c) => checkAgainstHelp(c, surface).map((p) => `${c.where}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('mention no --flag that exists neither in the CLI nor in the list of other programs’ flags', () => {
    const ours = new Set([...surface.global, ...[...surface.commands.values()].flatMap((s) => [...s])]);
    const unknown = [...MARKDOWN, ...WORKFLOWS].flatMap((file) =>
      flagsIn(read(file))
        .filter((flag) => !ours.has(flag) && FOREIGN_FLAGS[flag] === undefined)
        .map((flag) => `${file}: ${flag}`),
    );
    expect(unknown).toEqual([]);
  });

  it('allow-list only commands the docs still contain', () => {
    for (const entry of NOT_RUN)
      expect(
        documented.some((c) => !c.inline && entry.matches(c.args)),
        entry.reason,
      ).toBe(true);
  });

  it('detect a flag that does not exist (self-check)', () => {
    const fake = extractFromMarkdown(
      '```bash\nautoresearch eval my-prompt --no-such-flag  # exits 1\n```\n`autoresearch stop <run-id> --now`\n',
      'fake.md',
    );
    expect(fake.map((c) => c.exit)).toEqual([1, undefined]);
    expect(fake.flatMap((c) => checkAgainstHelp(c, surface))).toEqual([
      '`autoresearch eval --help` does not list --no-such-flag',
      '`autoresearch stop --help` does not list --now',
    ]);
    expect(() => commandsOfLine('cd x && autoresearch runs', 'fake.md:1')).toThrow(/alone/);
  });

  for (const command of documented.filter((c) => !c.inline)) {
    const skip = NOT_RUN.find((entry) => entry.matches(command.args));
    it.skipIf(skip !== undefined)(
      `${command.where}: autoresearch ${command.args.join(' ')}`,
      async () => {
        const args = prepare(command);
        const key = args.join(' ');
        const earlier = done.get(key);
        if (earlier !== undefined) return;
        done.set(key, command.where);
        await exercise(command, args);
      },
      240_000,
    );
  }
});

describe('the reference pages', () => {
  const keysOf = (...schemas: { shape: object }[]) => schemas.flatMap((schema) => Object.keys(schema.shape));

  it('name every key of experiment.yaml, its model entries and its cases', () => {
    const page = read('docs/experiment.md');
    const keys = keysOf(
      ExperimentFile,
      Models,
      ModelEntry,
      ProgramEntry,
      JudgePanel,
      Price,
      Weights,
      Search,
      Budget,
      CaseEntry,
    );
    expect(keys.filter((key) => !page.includes(`\`${key}\``))).toEqual([]);
  });

  it('name every check key and every check type', () => {
    const page = read('docs/checks.md');
    const names = [...keysOf(CheckEntry), ...CHECK_TYPE_NAMES];
    expect(names.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it('hold YAML and JSON examples that parse', () => {
    const blocks = MARKDOWN.flatMap((file) =>
      [...read(file).matchAll(/^```(yaml|json)\n([\s\S]*?)^```/gm)].map((m) => ({ file, m })),
    );
    expect(blocks.length).toBeGreaterThan(20);
    const broken = blocks.flatMap(({ file, m }) => {
      try {
        if (m[1] === 'json') JSON.parse(m[2] as string);
        else parseYaml(m[2] as string);
        return [];
      } catch (error) {
        return [`${file}: ${m[1]} block: ${error instanceof Error ? error.message : String(error)}`];
      }
    });
    expect(broken).toEqual([]);
  });

  it('link only to files and headings that exist', () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
    const anchorsOf = (file: string) =>
      new Set(
        read(file)
          .split('\n')
          .flatMap((line) => {
            const match = /^#{1,6} (.*)$/.exec(line);
            return match ? [slug(match[1] as string)] : [];
          }),
      );
    const broken = MARKDOWN.flatMap((file) =>
      [...read(file).matchAll(/\]\(([^)\s]+)\)/g)].flatMap((m) => {
        const target = m[1] as string;
        if (/^[a-z]+:/.test(target)) return [];
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(file, '..', path);
        if (!existsSync(join(REPO_ROOT, resolved))) return [`${file}: ${target} (no such file)`];
        if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
          return [`${file}: ${target} (no such heading)`];
        return [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('show a complete experiment.yaml that validates and sets every top-level, search and budget key', async () => {
    const page = read('docs/experiment.md');
    const yaml = /## A complete experiment\.yaml[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const data = parseYaml(yaml) as { search: object; budget: object; scoring: { weights: object } };
    // `agent:` makes every case an agent case, which the example's API generator cannot run: its
    // complete block is docs/agents.md's, checked below.
    const topLevel = Object.keys(ExperimentFile.shape).filter((key) => key !== 'agent');
    expect(Object.keys(data).sort()).toEqual(topLevel.sort());
    const agentPage = read('docs/agents.md');
    const agentYaml = /```yaml\n([\s\S]*?)```/.exec(agentPage)?.[1] ?? '';
    const agentBlock = (parseYaml(agentYaml) as { agent: object }).agent;
    expect(Object.keys(agentBlock).sort()).toEqual(Object.keys(AgentConfig.shape).sort());
    expect(Object.keys(data.search).sort()).toEqual(Object.keys(Search.shape).sort());
    expect(Object.keys(data.budget).sort()).toEqual(Object.keys(Budget.shape).sort());
    expect(Object.keys(data.scoring.weights).sort()).toEqual(Object.keys(Weights.shape).sort());
    const dir = repo.path('experiments/reference-check');
    await cp(repo.path('experiments/cold-email'), dir, { recursive: true });
    await writeFile(join(dir, 'experiment.yaml'), yaml);
    const result = await cli(['validate', 'experiments/reference-check']);
    expect(result.exitCode, result.stderr).toBe(0);
  });
});
