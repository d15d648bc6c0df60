import { describe, expect, it } from 'vitest';
import { recordedCalls } from '../../../src/agent/agent-calls.js';
import type { TranscriptEntry } from '../../../src/agent/agent-run.js';
import {
  type AgentActivity,
  DIGEST_CHARS,
  digestAgentRun,
  digestWithinRequest,
  REQUEST_DIGEST_CHARS,
} from '../../../src/loop/agent-digest.js';
import { buildMutatorFeedback } from '../../../src/loop/build-feedback.js';
import { buildMutatorRequest } from '../../../src/loop/mutator-prompt.js';
import { countChars } from '../../../src/loop/text.js';
import { MutatorFeedback } from '../../../src/protocol/mutation.js';
import { feedbackInput, sample, trainCase } from './feedback-fixtures.js';

function activity(overrides: Partial<AgentActivity> = {}): AgentActivity {
  return {
    sample: 0,
    endReason: 'done',
    turns: 4,
    tools: { Read: 2, Bash: 1, Write: 1 },
    calls: [
      { tool: 'Read', args: 'notes/a.md' },
      { tool: 'Read', args: 'notes/b.md' },
      { tool: 'Bash', args: 'npm test', error: 'Exit code 1: 2 tests failed' },
      { tool: 'Write', args: 'NOTES.md' },
    ],
    files: [
      { path: 'NOTES.md', status: 'created', kind: 'file', size: 120 },
      { path: 'old.md', status: 'deleted', kind: 'file' },
    ],
    truncated: false,
    ...overrides,
  };
}

const FAILED = { checks: ['writes-RELEASE_NOTES.md'], expectations: ['Names the version'] };

describe('digestAgentRun', () => {
  it('tells how the run ended, its tools with counts, each call in order with its error, its files and what failed', () => {
    const digest = digestAgentRun(activity(), FAILED);
    expect(digest).toMatchObject({ sample: 0, end_reason: 'done', turns: 4 });
    expect(digest.cut).toBeUndefined();
    expect(digest.digest.split('\n')).toEqual([
      'end: done (finished on its own) after 4 turns',
      'tools: Read ×2, Bash ×1, Write ×1 (4 calls, 1 with an error)',
      'failed: checks writes-RELEASE_NOTES.md; expectations "Names the version"',
      'files: created NOTES.md; deleted old.md',
      '1. Read notes/a.md',
      '2. Read notes/b.md',
      '3. Bash npm test → error: Exit code 1: 2 tests failed',
      '4. Write NOTES.md',
    ]);
  });

  it.each([
    ['max_turns', undefined, 'end: max_turns (stopped at the turn limit) after 4 turns'],
    [
      'timeout',
      'killed after 300 s',
      'end: timeout (stopped at the time limit) after 4 turns; error: killed after 300 s',
    ],
    [
      'error',
      'API error 400:\n bad request',
      'end: error (ended with an error) after 4 turns; error: API error 400: bad request',
    ],
  ] as const)('names the end reason %s and its error', (endReason, error, line) => {
    const digest = digestAgentRun(activity({ endReason, ...(error === undefined ? {} : { error }) }), {
      checks: [],
      expectations: [],
    });
    expect(digest.end_reason).toBe(endReason);
    expect(digest.digest.split('\n')[0]).toBe(line);
  });

  it('says so when an old record has no calls and when the record kept only the first ones', () => {
    const { calls: _calls, ...old } = activity();
    expect(digestAgentRun(old, FAILED).cut).toBe('calls not listed: the record predates per-call records');
    expect(digestAgentRun(activity({ callsOmitted: 50 }), FAILED).cut).toBe(
      '50 calls after the first 4 were not recorded',
    );
  });

  it('keeps a long run within the bound, from both ends, and says how many calls it left out', () => {
    const calls = Array.from({ length: 120 }, (_, i) => ({
      tool: 'Bash',
      args: `grep -rn pattern-${i} src/`,
    }));
    const digest = digestAgentRun(activity({ calls, tools: { Bash: 120 } }), FAILED);
    expect(countChars(digest.digest)).toBeLessThanOrEqual(DIGEST_CHARS);
    expect(digest.digest).toContain('1. Bash grep -rn pattern-0 src/');
    expect(digest.digest).toContain('120. Bash grep -rn pattern-119 src/');
    const hidden = Number(/… (\d+) more calls …/.exec(digest.digest)?.[1]);
    const shown = digest.digest.split('\n').filter((l) => /^\d+\. /.test(l)).length;
    expect(shown + hidden).toBe(120);
    expect(digest.cut).toBe(
      `${hidden} of 120 calls not shown (at most ${DIGEST_CHARS} characters for this case)`,
    );
  });

  it('cuts even a digest whose head alone is too long', () => {
    const digest = digestAgentRun(activity({ error: 'x'.repeat(5000) }), FAILED, 250);
    expect(countChars(digest.digest)).toBeLessThanOrEqual(250);
    expect(digest.cut).toContain('the digest was cut at 250 characters');
  });
});

describe('digestWithinRequest', () => {
  it('holds a request to its total, the worst cases told first, the rest left out with a note', () => {
    const calls = Array.from({ length: 200 }, (_, i) => ({ tool: 'Read', args: `docs/chapter-${i}.md` }));
    const many = activity({ calls, tools: { Read: 200 } });
    const digests = digestWithinRequest(
      Array.from({ length: 6 }, () => ({ activity: many, failed: FAILED })).concat([
        { activity: undefined as unknown as AgentActivity, failed: FAILED },
      ]),
    );
    const total = digests.reduce((sum, d) => sum + countChars(d?.digest ?? ''), 0);
    expect(total).toBeLessThanOrEqual(REQUEST_DIGEST_CHARS);
    expect(countChars(digests[0]?.digest ?? '')).toBeGreaterThan(DIGEST_CHARS - 100);
    expect(digests[5]).toMatchObject({ digest: '', end_reason: 'done' });
    expect(digests[5]?.cut).toContain(`reached ${REQUEST_DIGEST_CHARS} characters`);
    expect(digests[6]).toBeUndefined();
  });
});

describe('recordedCalls', () => {
  it('keeps each call in order with its telling arguments and the error its result carried', () => {
    const transcript: TranscriptEntry[] = [
      { kind: 'tool_call', turn: 1, id: 'a', tool: 'Read', input: { file_path: 'notes/a.md' } },
      { kind: 'tool_result', turn: 1, id: 'a', isError: false, content: 'text' },
      {
        kind: 'tool_call',
        turn: 2,
        id: 'b',
        tool: 'Bash',
        input: { command: 'ls\n  missing', description: 'list' },
      },
      { kind: 'tool_result', turn: 2, id: 'b', isError: true, content: 'ls: missing:\nNo such file' },
      {
        kind: 'tool_call',
        turn: 3,
        id: 'c',
        tool: 'Write',
        input: { file_path: 'A.md', content: 'x'.repeat(900) },
      },
      {
        kind: 'tool_call',
        turn: 4,
        id: 'd',
        tool: 'apply_patch',
        input: { changes: [{ path: 'src/x.ts', kind: 'update' }] },
      },
      { kind: 'tool_call', turn: 5, id: 'e', tool: 'Odd', input: { depth: 3 } },
    ];
    expect(recordedCalls(transcript)).toEqual({
      calls: [
        { tool: 'Read', args: 'notes/a.md' },
        { tool: 'Bash', args: 'ls missing description=list', error: 'ls: missing: No such file' },
        { tool: 'Write', args: 'A.md' },
        { tool: 'apply_patch', args: 'update src/x.ts' },
        { tool: 'Odd', args: '{"depth":3}' },
      ],
      omitted: 0,
    });
  });

  it('keeps the first 200 calls and counts the rest', () => {
    const transcript: TranscriptEntry[] = Array.from({ length: 230 }, (_, i) => ({
      kind: 'tool_call' as const,
      turn: i,
      id: String(i),
      tool: 'Glob',
      input: { pattern: '*'.repeat(400) },
    }));
    const { calls, omitted } = recordedCalls(transcript);
    expect(calls).toHaveLength(200);
    expect(omitted).toBe(30);
    expect(calls[0]?.args.length).toBeLessThanOrEqual(160);
  });
});

describe('the digest in the mutator feedback', () => {
  it('rides on a failing train case as `agent`, and the request tells it as fenced data', () => {
    const failing = trainCase('failing', 0.3, {
      samples: [
        sample({
          agent: activity({ endReason: 'max_turns' }),
          checks: [{ name: 'has-a-fixed-section', type: 'contains', pass: false, reason: 'not found' }],
        }),
      ],
    });
    const passing = trainCase('passing', 1, { samples: [sample({ agent: activity() })] });
    const feedback = buildMutatorFeedback(feedbackInput({ trainCases: [failing, passing] }));
    expect(MutatorFeedback.parse(feedback)).toEqual(feedback);
    expect(feedback.failing_cases.map((c) => c.case_id)).toEqual(['failing']);
    const agent = feedback.failing_cases[0]?.agent;
    expect(agent).toMatchObject({ sample: 0, end_reason: 'max_turns', turns: 4 });
    expect(agent?.digest).toContain('failed: checks has-a-fixed-section');
    const message = buildMutatorRequest(feedback).messages[0]?.content ?? '';
    expect(message).toContain('What the agent did (sample 0: max_turns after 4 turns):');
    expect(message).toMatch(/⟦BEGIN AGENT RUN [0-9a-f]{10}⟧\nend: max_turns/);
    expect(message).toContain(`at most ${DIGEST_CHARS} characters per case and ${REQUEST_DIGEST_CHARS}`);
  });

  it('leaves a text experiment’s feedback as it was', () => {
    const feedback = buildMutatorFeedback(feedbackInput());
    expect(feedback.failing_cases.every((c) => c.agent === undefined)).toBe(true);
    expect(buildMutatorRequest(feedback).messages[0]?.content).not.toContain('AGENT RUN');
  });
});
