/**
 * `autoresearch init <name> --from promptfooconfig.yaml` through its command function
 * (runInitFromPromptfoo): real files in a temporary project, the printed report, exit codes,
 * and the imported exec: program and javascript check file actually run from where
 * autoresearch runs them.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { afterAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run-checks.js';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import { renderRequest } from '../../src/experiment/render-request.js';
import { runInitFromPromptfoo } from '../../src/import/promptfoo/init-from-promptfoo.js';
import { createCommandProvider } from '../../src/providers/adapters/command.js';
import type { Terminal } from '../../src/ui/terminal.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/promptfoo');
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function captureTerminal(): Terminal & { stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    colors: pc.createColors(false),
    isTTY: false,
    errIsTTY: false,
    status: () => undefined,
    rewind: () => undefined,
    width: 100,
    stdout: () => out.join('\n'),
    stderr: () => err.join('\n'),
  };
}

/** A user's project: experiments/ plus their promptfoo suites under evals/. */
function project(...fixtures: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ar-init-pf-'));
  roots.push(root);
  mkdirSync(join(root, 'experiments'));
  for (const fixture of fixtures)
    cpSync(join(FIXTURES, fixture), join(root, 'evals', fixture), { recursive: true });
  return root;
}

async function init(root: string, name: string, from: string, promptIndex?: string, cwd = root) {
  const term = captureTerminal();
  const code = await runInitFromPromptfoo({ name, from, promptIndex, cwd, env: {}, term });
  return { code, stdout: term.stdout(), stderr: term.stderr() };
}

describe('init --from: a suite with an exec: provider, YAML tests and a javascript file check', async () => {
  const root = project('extraction-exec');
  const result = await init(root, 'invoices', 'evals/extraction-exec/promptfooconfig.yaml');

  it('writes the experiment, reports what was not imported and validates it', () => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Imported the promptfoo config as the experiment "invoices":');
    for (const file of ['experiment.yaml', 'prompt.md', 'cases.yaml']) {
      expect(result.stdout).toContain(`experiments/invoices/${file}`);
      expect(existsSync(join(root, 'experiments/invoices', file))).toBe(true);
    }
    expect(result.stdout).toContain('Not imported (10) — also listed at the top of experiment.yaml:');
    expect(result.stdout).toContain('- provider `vertex:gemini-1.5-pro` (providers[1]):');
    expect(result.stdout).toMatch(/Valid: 3 cases \(\d train, \d holdout\), 1 shared check\./);
    expect(result.stdout).toContain('autoresearch validate invoices');
    const header = readFileSync(join(root, 'experiments/invoices/experiment.yaml'), 'utf8');
    expect(header).toContain('# NOT IMPORTED (10)');
    expect(header).toContain('#   - provider `vertex:gemini-1.5-pro` (providers[1]):');
  });

  it('runs the exec: program as a command provider from the project root, prompt on stdin', async () => {
    const { experiment } = await loadExperiment('invoices', { cwd: root, env: {} });
    const provider = createCommandProvider(experiment.models.generator, { env: process.env, cwd: root });
    const reply = await provider.complete({
      messages: [{ role: 'user', content: 'Invoice INV-1, total 1 USD' }],
    });
    expect(JSON.parse(reply.text)).toEqual({ invoice_number: 'INV-1', total: 1, currency: 'USD', chars: 26 });
  });

  it('runs the re-pointed javascript check file from the experiment folder', async () => {
    const { experiment } = await loadExperiment('invoices', { cwd: root, env: {} });
    const discount = experiment.cases.find((c) => c.id === 'invoice-with-a-discount');
    const file = discount?.checks.find((c) => c.type === 'javascript');
    expect(file).toBeDefined();
    const run = (output: string) =>
      runChecks({
        output,
        vars: discount?.vars ?? {},
        checks: [file!],
        baseDir: experiment.dir,
        env: process.env,
      });
    expect((await run('{"total": 90}'))[0]).toMatchObject({ pass: true });
    expect((await run('{"total": 0}'))[0]).toMatchObject({ pass: false });
  });
});

describe('init --from: choosing the prompt', () => {
  it('imports the prompt --prompt-index names', async () => {
    const root = project('summaries-files');
    const result = await init(root, 'news', 'evals/summaries-files/promptfooconfig.yaml', '1');
    expect(result.code).toBe(0);
    expect(readFileSync(join(root, 'experiments/news/prompt.md'), 'utf8')).toBe(
      'You are an editor. Write a two-sentence summary of this article for {{audience}}:\n\n{{article}}\n',
    );
  });

  it('exits 2 listing the prompts when --prompt-index is out of range, writing nothing', async () => {
    const root = project('summaries-files');
    const result = await init(root, 'news', 'evals/summaries-files/promptfooconfig.yaml', '3');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --prompt-index 3 is out of range: the config has 3 prompts:');
    expect(result.stderr).toContain('  0  prompts/summarize.txt #1  (prompts[0], summarize.txt part 1)');
    expect(result.stderr).toContain('  2  prompts/chat.json  (prompts[1], prompts/chat.json)');
    expect(result.stderr).toContain('hint: pass --prompt-index with a number from 0 to 2');
    expect(readdirSync(join(root, 'experiments'))).toEqual([]);
  });

  it('exits 2 on an index that is not a number', async () => {
    const root = project('summaries-files');
    const result = await init(root, 'news', 'evals/summaries-files/promptfooconfig.yaml', 'first');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--prompt-index must be a whole number from 0 (got "first")');
  });
});

describe('init --from: refusals', () => {
  it('never overwrites an existing experiment', async () => {
    const root = project('support-inline');
    expect((await init(root, 'support', 'evals/support-inline/promptfooconfig.yaml')).code).toBe(0);
    const before = readFileSync(join(root, 'experiments/support/experiment.yaml'), 'utf8');
    const again = await init(root, 'support', 'evals/support-inline/promptfooconfig.yaml', '1');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('experiments/support already exists');
    expect(readFileSync(join(root, 'experiments/support/experiment.yaml'), 'utf8')).toBe(before);
  });

  it('exits 2 for a bad name or a config that does not exist', async () => {
    const root = project();
    const badName = await init(root, 'My Suite', 'promptfooconfig.yaml');
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('"My Suite" is not a valid experiment name');
    const missing = await init(root, 'suite', 'nowhere/promptfooconfig.yaml');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nowhere/promptfooconfig.yaml does not exist');
  });

  it('works from a subfolder of the project, with --from relative to it', async () => {
    const root = project('chat-tutor');
    const result = await init(
      root,
      'tutor',
      'promptfooconfig.yaml',
      undefined,
      join(root, 'evals/chat-tutor'),
    );
    expect(result.code).toBe(0);
    expect(existsSync(join(root, 'experiments/tutor/experiment.yaml'))).toBe(true);
    expect(result.stdout).toContain('../../experiments/tutor/experiment.yaml');
  });
});

describe('init --from: a chat prompt with response_format and tools (invoice-chat)', async () => {
  const root = project('invoice-chat');
  const result = await init(root, 'invoices', 'evals/invoice-chat/promptfooconfig.yaml');

  it('writes system.md, schema.json and tools.json beside experiment.yaml, and validates', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(join(root, 'experiments/invoices')).sort()).toEqual([
      'cases.yaml',
      'experiment.yaml',
      'schema.json',
      'system.md',
      'tools.json',
    ]);
  });

  it('sends what the promptfoo suite sent: the system message, the user message, the schema and the tools', async () => {
    const { experiment } = await loadExperiment('invoices', { cwd: root, env: {} });
    const [first] = experiment.cases;
    if (first === undefined) throw new Error('no case imported');
    const request = renderRequest({ shape: experiment.shape, prompt: experiment.prompt, testCase: first });
    expect(request.system).toBe(
      'You extract invoices for the accounts team of Brightwave Media Ltd.\nLook the vendor up before you answer.\n',
    );
    expect(request.messages).toEqual([
      { role: 'user', content: `Extract this invoice:\n\n${first.vars['invoice']}` },
    ]);
    expect(request.output?.schema['required']).toEqual(['vendor_id', 'invoice_number', 'currency', 'total']);
    expect(request.tools?.map((tool) => tool.name)).toEqual(['lookup_vendor', 'today']);
  });
});
