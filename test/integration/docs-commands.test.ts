/**
 * No drift between the documentation and the tool: every ```bash / ```sh block of README.md and
 * docs/*.md, and every `run:` step of the example workflows, is run **as written**, line by line
 * in bash (`bash -e -c`), as a reader in a fresh clone would type it.
 *
 * - **Where.** A copy of this checkout's tracked files (the docs as they are now), committed in a
 *   new git repository, with what the README's install (`npm ci`) leaves: node_modules/ and the
 *   build in dist/. README.md runs in one such copy; every other page in its own copy made after
 *   the README's first step (`init my-prompt`), since the pages assume it. Pages run at the same
 *   time (each in its own copy, so `latest` means that page's newest run); a page's blocks and
 *   lines run in order.
 * - **PATH** is the system's (node, npm, npx, git) and nothing else: no node_modules/.bin, no
 *   rewriting to the built CLI. `npx autoresearch` finds the project's own bin, as in a clone;
 *   npm runs offline (`npm_config_offline`, so nothing is fetched), without its update check, and
 *   with `ignore_scripts`, since the copy's `prepare` (the build) already ran in `npm ci`.
 * - **Models** come from the environment, never from editing a line: `AUTORESEARCH_PROVIDER=sim`
 *   (the documented default of `--provider`) makes every model simulated, and a `--ping` line,
 *   whose point is a real call, goes to a fake API server on 127.0.0.1 through
 *   ANTHROPIC_BASE_URL / OPENAI_BASE_URL with a made-up key. A block's `export` lines hold for the
 *   lines after them.
 * - **Run names**: the docs say `latest` (the newest run, `latest~1` the one before), which the
 *   CLI accepts wherever a run id goes, so no `<run-id>` needs filling in.
 * - **Speed**: docs lines give short budgets themselves (`--iterations 2`, `+2`) where the point is
 *   the command line; a line whose point is a long run is listed in NOT_RUN with its reason.
 * - **Exit codes**: 0, or what a trailing `# … exit N` comment says; a `--fail-under` gate may exit
 *   1 with its verdict. Commands that run until stopped (`watch`, `report --serve`) are stopped like
 *   a user would (Ctrl-C / SIGTERM) once their output shows they work; after a `stop` line the
 *   test waits for the detached run to stop, as the reader would. Files a page presumes its reader
 *   has (a promptfoo config) are placed first (READER_FILES).
 *
 * Every `autoresearch …` in a block or an inline code span is also checked for its subcommand and
 * flags against `--help`, and every `--flag` written anywhere in the docs must exist (or be listed
 * below as another program's flag).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CLI_MAIN, cleanEnv, REPO_ROOT, requireBuiltCli } from '../helpers/built-cli.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { TEST_AUTHOR } from '../helpers/temp-repo.js';
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

// ---------------------------------------------------------------- shell blocks, run as written

interface ShellLine {
  where: string;
  text: string;
}
interface ShellBlock {
  file: string;
  lines: ShellLine[];
}

/** The ```bash / ```sh blocks of a markdown file, continuation lines joined. */
function shellBlocksOfMarkdown(text: string, file: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const lines = text.split('\n');
  let fence: { marker: string; block?: ShellBlock } | undefined;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] as string;
    const open = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (fence === undefined && open) {
      const shell = /^(bash|sh|shell|console)$/.test(open[2] ?? '');
      fence = { marker: open[1] as string, ...(shell ? { block: { file, lines: [] } } : {}) };
      if (fence.block) blocks.push(fence.block);
      continue;
    }
    if (fence === undefined) continue;
    if (line.trim().startsWith(fence.marker)) {
      fence = undefined;
      continue;
    }
    const where = `${file}:${n + 1}`;
    let logical = line;
    while (logical.endsWith('\\') && n + 1 < lines.length) logical = `${logical.slice(0, -1)} ${lines[++n]}`;
    if (fence.block && logical.trim() !== '' && !logical.trim().startsWith('#'))
      fence.block.lines.push({ where, text: logical.trim() });
  }
  return blocks;
}

/** Each `run:` step of a GitHub Actions workflow is a block. */
function shellBlocksOfWorkflow(text: string, file: string): ShellBlock[] {
  const doc = parseYaml(text) as { jobs?: Record<string, { steps?: { run?: string }[] }> };
  const all = text.split('\n');
  return Object.values(doc.jobs ?? {}).flatMap((job) =>
    (job.steps ?? []).flatMap((step) => {
      const lines = (step.run ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#'))
        .map((l) => ({ where: `${file}:${all.findIndex((a) => a.includes(l)) + 1}`, text: l }));
      return lines.length > 0 ? [{ file, lines }] : [];
    }),
  );
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
const blocks: ShellBlock[] = [];
for (const file of [...MARKDOWN, ...WORKFLOWS]) {
  try {
    blocks.push(
      ...(file.endsWith('.md')
        ? shellBlocksOfMarkdown(read(file), file)
        : shellBlocksOfWorkflow(read(file), file)),
    );
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
 * Lines not run, with the reason; matched by their text without its comment. A stale entry fails, and every
 * other line — a new one included — is run.
 */
const NOT_RUN: Record<string, string> = {
  'npm ci && npm start':
    'the install itself: the scratch copy is what it leaves (dist/ built, node_modules/); `npm start` is 12 iterations of the cold-email run other lines make',
  'npm run check': 'the whole test suite, this test among it',
  'npm ci': 'the workflow’s install: the scratch copy is what it leaves',
  'npx autoresearch run release-notes --provider sim --iterations 6':
    'the rehearsal whose six-iteration table follows it (~2 min of agent iterations here); docs/agents.md runs the same command with --iterations 2 and test/integration/agent-sim-run.test.ts a longer run',
  'npx autoresearch resume latest --iterations +10':
    'ten agent iterations, a night’s work; `resume latest --iterations +N` is run by README.md and docs/experiment.md',
  'npx autoresearch judge runs/<run-id>/iterations/0000/candidates/0/outputs --rubric rubrics/my-prompt.md --model sim --samples 3':
    'a path into a run the reader made; the line above it runs `judge` on a folder of outputs',
};

/** A line without its trailing comment: what NOT_RUN's keys name. */
function commandOf(text: string): string {
  return text.replace(/\s+#.*$/, '');
}

/** Commands that run until the user stops them: started, stopped once they show they work. */
const UNTIL_STOPPED: { matches: RegExp; ready: RegExp; signal: NodeJS.Signals; exits: number[] }[] = [
  // Following the detached run, or waiting for one; exit 0 if the run ended first.
  { matches: /^npx autoresearch watch\b/, ready: /\S/, signal: 'SIGINT', exits: [130, 0] },
  // Ctrl-C, as the reader would: through npx the shell sees 130.
  {
    matches: /^npx autoresearch report .*--serve/,
    ready: /(http:\/\/127\.0\.0\.1:\d+\S*)/,
    signal: 'SIGINT',
    exits: [130, 0],
  },
];

/** Files a page presumes its reader has, placed before its blocks run. */
const READER_FILES: Record<string, string> = {
  'promptfooconfig.yaml': `description: Support replies
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
`,
};

/** What a line must exit with: a trailing `# … exit N`, else 0 (0 or 1 for a --fail-under gate). */
function expectedExits(text: string): number[] {
  const comment = tokenize(text).flatMap((t) => ('comment' in t ? [t.comment] : []))[0] ?? '';
  const exit = /\bexits? (?:with )?(?:code )?(\d+)\b/i.exec(comment);
  if (exit) return [Number(exit[1])];
  return /--fail-under/.test(text) ? [0, 1] : [0];
}

const SYSTEM_PATH = [...new Set([dirname(process.execPath), '/usr/bin', '/bin'])].join(':');
let server: FakeLlmServer;
let scratch: string;
let env: NodeJS.ProcessEnv;
let surface: CliSurface;
/** The repository as a fresh clone leaves it after the README's install, and the same after its first step. */
let cloneDir: string;
let initDir: string;
const lingering = new Set<number>();

function sh(script: string, cwd: string, extra: NodeJS.ProcessEnv = {}) {
  return execa('bash', ['-e', '-c', script], {
    cwd,
    env: { ...env, ...extra },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    all: true,
    // Its own process group, so stopping it reaches npx and the CLI under it, as Ctrl-C does.
    detached: true,
  });
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
  while (isRunning(pid)) {
    if (Date.now() > until) throw new Error(`background run (pid ${pid}) did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs a command that runs until stopped, waits until its output shows it works, then stops it. */
async function runUntilStopped(script: string, cwd: string, how: (typeof UNTIL_STOPPED)[number]) {
  const child = sh(script, cwd);
  const pid = child.pid as number;
  lingering.add(pid);
  let seen = '';
  const shown = await new Promise<string>((resolve, reject) => {
    child.all?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = how.ready.exec(seen);
      if (match) resolve(match[1] ?? match[0]);
    });
    child.then((r) => reject(new Error(`exited (${r.exitCode}) before it was ready: ${seen}`)), reject);
  });
  if (how.ready.source.includes('127')) {
    const page = await fetch(shown);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  }
  process.kill(-pid, how.signal);
  const result = await child;
  lingering.delete(pid);
  return result;
}

/** Runs one page's blocks in order, in its own copy of the project; returns what went wrong. */
async function runPage(file: string, blocks: ShellBlock[]): Promise<string[]> {
  const dir = await mkdtemp(join(scratch, `${file.replace(/\W+/g, '-')}-`));
  await copyProject(file === 'README.md' ? cloneDir : initDir, dir);
  for (const [name, text] of Object.entries(READER_FILES)) await writeFile(join(dir, name), text);
  const problems: string[] = [];
  const detached: number[] = [];
  try {
    for (const block of blocks) {
      const exports: string[] = [];
      for (const line of block.lines) {
        if (NOT_RUN[commandOf(line.text)] !== undefined) continue;
        // A block's `export` lines hold for the lines after them, as in the reader's shell.
        const script = [...exports, line.text].join('\n');
        if (/^export \w+=/.test(line.text)) exports.push(line.text);
        const until = UNTIL_STOPPED.find((u) => u.matches.test(line.text));
        // `--ping` is a real call: it goes to the fake API server, not to the simulation.
        const extra = /--ping\b/.test(line.text) ? { AUTORESEARCH_PROVIDER: undefined } : {};
        const result = until ? await runUntilStopped(script, dir, until) : await sh(script, dir, extra);
        const exits = until ? until.exits : expectedExits(line.text);
        const output = result.all ?? '';
        // What the reader's shell reports: 128 + the signal's number for a command a signal ended.
        const code = result.exitCode ?? (result.signal ? 128 + constants.signals[result.signal] : -1);
        if (!exits.includes(code))
          problems.push(
            `${line.where}: \`${line.text}\` exited ${code}, not ${exits.join(' or ')}\n${output.slice(-2000)}`,
          );
        // Node's own warnings (a listener "leak", a deprecation) never reach the user's terminal.
        else if (/\(node:\d+\) \w*Warning/.test(output))
          problems.push(`${line.where}: a Node warning\n${output}`);
        else if (
          result.exitCode === 1 &&
          exits.includes(1) &&
          /--fail-under/.test(line.text) &&
          !/fail-under/.test(output)
        )
          problems.push(`${line.where}: exit 1 without a --fail-under verdict\n${output}`);
        if (/autoresearch (run|resume) .*--detach/.test(line.text)) {
          const pid = /pid (\d+)/.exec(output);
          if (pid) detached.push(Number(pid[1]));
          else problems.push(`${line.where}: --detach printed no pid\n${output}`);
        }
        // The reader waits for the run to stop before going on.
        if (/^npx autoresearch stop\b/.test(line.text))
          for (const pid of detached.splice(0)) await waitForExit(pid, 300_000);
      }
    }
  } finally {
    for (const pid of detached) await waitForExit(pid, 300_000).catch(() => process.kill(pid, 'SIGKILL'));
  }
  return problems;
}

/** A copy of a scratch project: its own files, node_modules/ hard-linked (nothing writes there). */
async function copyProject(from: string, to: string): Promise<void> {
  await cp(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => source !== join(from, 'node_modules'),
  });
  await execa('cp', ['-al', join(from, 'node_modules'), join(to, 'node_modules')]);
}

/** A copy of the working tree's tracked files (this checkout's docs as they are now), committed. */
async function cloneProject(dir: string): Promise<void> {
  const tracked = (await execa('git', ['ls-files', '-z'], { cwd: REPO_ROOT })).stdout.split('\0');
  for (const file of tracked.filter((f) => f !== '' && existsSync(join(REPO_ROOT, f))))
    await cp(join(REPO_ROOT, file), join(dir, file), { verbatimSymlinks: true });
  // What `npm ci` leaves: the dependencies and, through `prepare`, the build.
  await cp(join(REPO_ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  // Hard links: real files inside the copy, as the judge's sandbox must see them, at no cost in
  // space; never a link to this checkout's folder, which a reinstall would empty.
  await execa('cp', ['-al', join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules')]);
  const git = (args: string[]) => execa('git', args, { cwd: dir, env, extendEnv: false });
  await git(['init', '--quiet', '--initial-branch', 'main']);
  await git(['add', '--all']);
  await git(['commit', '--quiet', '--no-gpg-sign', '-m', 'clone']);
}

/**
 * A reader's shell: cleanEnv without what npm sets for the script that started this test
 * (npm_config_local_prefix, npm_config_cache, …), which would point npx at this checkout.
 */
function readerEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = cleanEnv();
  for (const key of Object.keys(env)) if (/^npm_|^INIT_CWD$/i.test(key)) delete env[key];
  return { ...env, ...extra };
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({ respond: () => 'OK' });
  scratch = await mkdtemp(join(tmpdir(), 'ar-docs-'));
  const home = join(scratch, 'home');
  await mkdir(home);
  env = readerEnv({
    PATH: SYSTEM_PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: TEST_AUTHOR.name,
    GIT_AUTHOR_EMAIL: TEST_AUTHOR.email,
    GIT_COMMITTER_NAME: TEST_AUTHOR.name,
    GIT_COMMITTER_EMAIL: TEST_AUTHOR.email,
    AUTORESEARCH_PROVIDER: 'sim',
    ANTHROPIC_API_KEY: 'test-key-not-real',
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    OPENAI_API_KEY: 'test-key-not-real',
    OPENAI_BASE_URL: server.openaiBaseUrl,
    // npx resolves the project's own bin offline; `npm ci` already ran `prepare` (the build),
    // and npm's update check would reach the network.
    npm_config_offline: 'true',
    npm_config_ignore_scripts: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
  });
  cloneDir = join(scratch, 'clone');
  initDir = join(scratch, 'clone-after-init');
  await cloneProject(cloneDir);
  await copyProject(cloneDir, initDir);
  const init = await sh(
    'npx autoresearch init my-prompt && git add --all && git commit --quiet -m init',
    initDir,
  );
  expect(init.exitCode, init.all).toBe(0);
  surface = await readCliSurface(env);
}, 300_000);

afterAll(async () => {
  for (const pid of lingering) process.kill(-pid, 'SIGKILL');
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  // Some twenty copies of ~11,000 hard links each to remove.
}, 180_000);

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

  it('skip only lines the docs still contain, and run every other line', () => {
    const lines = new Set(blocks.flatMap((b) => b.lines.map((l) => commandOf(l.text))));
    expect(Object.keys(NOT_RUN).filter((text) => !lines.has(text))).toEqual([]);
    expect(lines.size).toBeGreaterThan(40);
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

  const pages = [...new Set(blocks.map((b) => b.file))];
  for (const file of pages) {
    it.concurrent(`${file}: every shell block runs as written`, async () => {
      expect(
        await runPage(
          file,
          blocks.filter((b) => b.file === file),
        ),
      ).toEqual([]);
    }, 600_000);
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
    const project = await mkdtemp(join(scratch, 'reference-'));
    await copyProject(initDir, project);
    const dir = join(project, 'experiments/reference-check');
    await cp(join(project, 'experiments/cold-email'), dir, { recursive: true });
    await writeFile(join(dir, 'experiment.yaml'), yaml);
    const result = await execa(process.execPath, [CLI_MAIN, 'validate', 'experiments/reference-check'], {
      cwd: project,
      env,
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);
  });
});
