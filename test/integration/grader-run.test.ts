/**
 * The grader under the sandbox and proxy discipline (needs `npm run build`): fixture graders
 * that invent quotes or reword expectations, what the grader can see, the built-in grader
 * through the proxy to the fake server, and `autoresearch grade` standalone with sim.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRADER_SYSTEM_PROMPT, graderSystemPrompt } from '../../src/grader/grader-prompt.js';
import { runGrader } from '../../src/grader/run-grader.js';
import { parseGraderUserMessage } from '../../src/protocol/grading.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const CLI = resolve('dist/cli/main.js');
const FIXTURE = resolve('test/fixtures/graders/fixture-grader.mjs');
const USER_KEY = 'sk-ant-api03-USER-KEY-for-grader';
const PROMPT_TEXT = 'SECRET PROMPT: write like the Nimbus campaign';
const expectations = [
  'Names one concrete pain of usage-based billing',
  'Asks for a short call',
  'Mentions GDPR',
];
const caseInput = {
  expectations,
  vars: { topic: 'Usage-based billing', audience: 'CTO at a 50-person SaaS' },
  model: 'anthropic / claude-gen',
  outputs: [
    {
      sample: 0,
      text: 'Hi Dana, usage-based billing makes revenue forecasting hard. Worth a 15-minute call Thursday?',
      stopReason: 'end_turn',
    },
  ],
};
const runnerEnv = { ...process.env, ANTHROPIC_API_KEY: USER_KEY, AUTORESEARCH_PROMPT: PROMPT_TEXT };
let tmpRoot: string;

beforeAll(async () => {
  tmpRoot = await mkdtemp(join(tmpdir(), 'grader-sandboxes-'));
});
afterAll(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

const program = (mode: string) => ({ command: [process.execPath, FIXTURE, mode] });

describe('runGrader with grader programs', () => {
  it('turns a PASS whose quote is not in the output into a flagged FAIL and recomputes the summary', async () => {
    const result = await runGrader({ ...caseInput, grader: program('fake-quote'), env: runnerEnv, tmpRoot });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.grading.expectations.map((e) => [e.passed, e.flag ?? null])).toEqual([
      [true, null],
      [false, 'claimed PASS not verified: the quoted evidence does not occur in any output'],
      [false, 'claimed PASS not verified: the quoted evidence does not occur in any output'],
    ]);
    expect(result.grading.summary).toEqual({ passed: 1, failed: 2, total: 3, pass_rate: 1 / 3 });
    expect((result.raw as { summary: { passed: number } }).summary.passed).toBe(99);
    expect(result.grading.eval_feedback.overall).toBe('Fixture critique.');
    expect(result.grading.claims).toHaveLength(1);
  });

  it('rejects reworded expectations: retried, then a grader_error', async () => {
    const result = await runGrader({ ...caseInput, grader: program('reword'), env: runnerEnv, tmpRoot });
    expect(result).toMatchObject({ ok: false, kind: 'grader_error', attempts: 2 });
    if (!result.ok)
      expect(result.message).toMatch(
        /"Names one concrete pain of usage-based billing" is missing or was reworded/,
      );
  });

  it.each([
    ['a FIFO', 'fifo', /grading\.json was not read: it is a FIFO, not a regular file \(after 2 attempts\)$/],
    [
      'a file past the 4 MiB cap',
      'oversize',
      /grading\.json was not read: it is too large: \d+ bytes, \d+ over the cap of 4194304 \(after 2 attempts\)$/,
    ],
  ])('takes %s in place of grading.json for a grader_error, promptly', async (_what, mode, message) => {
    const started = Date.now();
    const result = await runGrader({ ...caseInput, grader: program(mode), env: runnerEnv, tmpRoot });
    expect(result).toMatchObject({ ok: false, kind: 'grader_error', attempts: 2 });
    if (!result.ok) expect(result.message).toMatch(message);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('shows the grader only the outputs, the transcript and the expectations', async () => {
    const result = await runGrader({ ...caseInput, grader: program('spy'), env: runnerEnv, tmpRoot });
    expect(result.ok).toBe(true);
    const spy = (result.ok ? result.raw : {}) as {
      spy: { cwdFiles: { path: string; text: string }[]; homeFiles: unknown[]; env: Record<string, string> };
    };
    expect(spy.spy.cwdFiles.map((f) => f.path).sort()).toEqual([
      'expectations.json',
      'outputs/output_00.txt',
      'transcript.md',
    ]);
    const transcript = spy.spy.cwdFiles.find((f) => f.path === 'transcript.md')?.text ?? '';
    expect(transcript).toContain('- topic: Usage-based billing');
    expect(transcript).toContain('anthropic / claude-gen');
    expect(spy.spy.homeFiles).toEqual([]);
    const everything = JSON.stringify(spy.spy);
    expect(everything).not.toContain('Nimbus');
    expect(everything).not.toContain(USER_KEY);
    expect(spy.spy.env['ANTHROPIC_API_KEY']).toBeUndefined();
  });

  it('never runs without outputs', async () => {
    expect(await runGrader({ ...caseInput, outputs: [], grader: program('honest') })).toMatchObject({
      ok: false,
      kind: 'grader_error',
      attempts: 0,
    });
  });
});

describe('built-in grader through the proxy', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer({
      requireKey: USER_KEY,
      respond: (req) => {
        const parsed = parseGraderUserMessage(req.messages.at(-1)?.content ?? '');
        if (parsed === undefined) return 'not a grader request';
        return JSON.stringify({
          expectations: [
            {
              text: parsed.expectations[0],
              passed: true,
              evidence: 'The output says: "usage-based billing makes revenue forecasting hard."',
            },
            { text: parsed.expectations[1], passed: true, evidence: '"Worth a 15-minute call Thursday?"' },
            { text: parsed.expectations[2], passed: true, evidence: 'Mentions GDPR' },
          ],
          claims: [],
          eval_feedback: { suggestions: [], overall: 'Fine.' },
        });
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('grades with one fenced call and downgrades a PASS that only restates the expectation', async () => {
    const entry = {
      provider: 'anthropic' as const,
      model: 'claude-grader',
      base_url: server.anthropicBaseUrl,
    };
    const pool = createModelPool({
      models: { grader: entry },
      concurrency: 2,
      env: { ANTHROPIC_API_KEY: USER_KEY },
    });
    try {
      const result = await runGrader({
        ...caseInput,
        grader: entry,
        client: pool.client('grader'),
        env: runnerEnv,
        tmpRoot,
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.grading.expectations.map((e) => e.passed)).toEqual([true, true, false]);
      expect(result.grading.expectations[2]?.flag).toMatch(/restates the expectation/);
      expect(result.grading.summary.pass_rate).toBeCloseTo(2 / 3);
      expect(server.log).toHaveLength(1);
      const body = server.log[0]?.body as { system: unknown; messages: { content: string }[] };
      // The instructions are the prompt cache's prefix (docs/design/cost-engine.md); the case's
      // material is not.
      expect(body.system).toEqual([
        { type: 'text', text: GRADER_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } },
      ]);
      const parsed = parseGraderUserMessage(body.messages[0]?.content ?? '');
      expect(parsed?.outputs).toEqual([{ file: 'outputs/output_00.txt', text: caseInput.outputs[0]?.text }]);
      expect(parsed?.transcript).toContain('Usage-based billing');
      expect(JSON.stringify(body)).not.toContain('Nimbus');
    } finally {
      await pool.close();
    }
  });
});

describe('built-in grader under judging.inputs', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer({
      requireKey: USER_KEY,
      respond: (req) => {
        const parsed = parseGraderUserMessage(req.messages.at(-1)?.content ?? '');
        if (parsed === undefined) return 'not a grader request';
        return JSON.stringify({
          expectations: parsed.expectations.map((text) => ({ text, passed: false, evidence: 'Not shown.' })),
        });
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads the inputs the sandbox holds and sends them once, fenced, with instructions that say so', async () => {
    const entry = {
      provider: 'anthropic' as const,
      model: 'claude-grader',
      base_url: server.anthropicBaseUrl,
    };
    const pool = createModelPool({
      models: { grader: entry },
      concurrency: 2,
      env: { ANTHROPIC_API_KEY: USER_KEY },
    });
    const input = '# Variables\n\ntopic: Usage-based billing\n\n# Conversation\n\n(none)\n';
    try {
      const result = await runGrader({
        ...caseInput,
        outputs: [...caseInput.outputs, { sample: 1, text: 'A second sample about billing.' }],
        input,
        grader: entry,
        client: pool.client('grader'),
        env: runnerEnv,
        tmpRoot,
      });
      expect(result.ok).toBe(true);
      expect(server.log).toHaveLength(1);
      const body = server.log[0]?.body as { system: { text: string }[]; messages: { content: string }[] };
      expect(body.system.map((block) => block.text).join('')).toBe(graderSystemPrompt(true));
      const parsed = parseGraderUserMessage(body.messages[0]?.content ?? '');
      expect(parsed?.inputs).toEqual([
        { file: 'inputs/input_00.txt', text: input },
        { file: 'inputs/input_01.txt', text: input },
      ]);
      expect((body.messages[0]?.content ?? '').split(input)).toHaveLength(2);
      expect(JSON.stringify(body)).not.toContain('Nimbus');
    } finally {
      await pool.close();
    }
  });
});

describe('autoresearch grade (standalone)', () => {
  it('grades a case folder with --model sim and writes grading.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'grade-standalone-'));
    try {
      await mkdir(join(dir, 'case', 'outputs'), { recursive: true });
      await writeFile(join(dir, 'case', 'outputs', 'output_00.txt'), caseInput.outputs[0]?.text ?? '');
      await writeFile(join(dir, 'case', 'transcript.md'), '# Transcript\n\n- topic: Usage-based billing\n');
      await writeFile(join(dir, 'expectations.txt'), `${expectations.join('\n')}\n`);
      const run = await execa(
        process.execPath,
        [CLI, 'grade', 'case', '--expectations', 'expectations.txt', '--model', 'sim'],
        {
          cwd: dir,
          reject: false,
          env: { NO_COLOR: '1' },
        },
      );
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toMatch(/^GRADE pass_rate=\d\.\d{4} \(\d\/3 passed\)$/);
      expect(run.stderr).toMatch(/simulated/);
      const grading = JSON.parse(await readFile(join(dir, 'case', 'grading.json'), 'utf8'));
      expect(grading.expectations.map((e: { text: string }) => e.text)).toEqual(expectations);
      expect(grading.summary.total).toBe(3);
      expect(grading.expectations.find((e: { text: string }) => e.text === 'Mentions GDPR').passed).toBe(
        false,
      );

      const missing = await execa(
        process.execPath,
        [CLI, 'grade', 'case', '--expectations', 'nope.txt', '--model', 'sim'],
        { cwd: dir, reject: false },
      );
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr).toMatch(/cannot read the expectations file/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('grades the docs example as the docs say, writing where --out points and nothing in the case folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'grade-docs-'));
    try {
      const example = resolve('docs/examples/grade-case');
      const out = join(dir, 'grading.json');
      const run = await execa(
        process.execPath,
        [
          CLI,
          'grade',
          example,
          '--expectations',
          join(example, 'expectations.yaml'),
          '--model',
          'sim',
          '--out',
          out,
        ],
        { reject: false, env: { NO_COLOR: '1' } },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      // The email plainly names Acme and the days its close takes, and offers no price.
      expect(run.stdout).toBe('GRADE pass_rate=0.6667 (2/3 passed)');
      const grading = JSON.parse(await readFile(out, 'utf8'));
      expect(grading.expectations.map((e: { passed: boolean }) => e.passed)).toEqual([true, true, false]);
      await expect(readFile(join(example, 'grading.json'), 'utf8')).rejects.toThrow(/ENOENT/);

      // The judge's docs line likewise writes where --out says, not into the folder it runs in.
      const scores = join(dir, 'judge-scores.json');
      const judged = await execa(
        process.execPath,
        [
          CLI,
          'judge',
          resolve('docs/examples/judge/outputs'),
          '--rubric',
          resolve('docs/examples/judge/rubric.md'),
          '--model',
          'sim',
          '--out',
          scores,
        ],
        { cwd: join(dir), reject: false, env: { NO_COLOR: '1' } },
      );
      expect(judged.exitCode, judged.stderr).toBe(0);
      expect(JSON.parse(await readFile(scores, 'utf8'))).toHaveProperty('quality_score');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
