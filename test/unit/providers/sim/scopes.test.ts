/**
 * Kind-scoped instructions (src/providers/sim/scopes.ts) and the landscape they make in
 * experiments/inbox-replies: a length rule for every reply helps one kind of case and not the
 * other, the mutator scopes a rule to the kind its failures are, a lineage that has one kind's
 * rule cannot add the other's, and a clean three-way merge of two specialists (git merge-file)
 * gives the combined prompt, which does better on both kinds than either specialist.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { extractKeepBlocks, findPlaceholders, renderTemplate } from '../../../../src/experiment/template.js';
import { MUTATOR_FEEDBACK_FORMAT, type MutatorFeedback } from '../../../../src/protocol/mutation.js';
import { parseInstructions } from '../../../../src/providers/sim/instructions.js';
import { createRng } from '../../../../src/providers/sim/prng.js';
import { proposeMutation } from '../../../../src/providers/sim/roles/mutator.js';
import {
  kindOf,
  parseScopedInstructions,
  pluralKind,
  scopeMatches,
  scopeOf,
} from '../../../../src/providers/sim/scopes.js';
import { simulateCompletion } from '../../../../src/providers/sim/simulate.js';
import { countWords } from '../../../../src/providers/sim/text.js';

const EXAMPLE = resolve(import.meta.dirname, '../../../../experiments/inbox-replies');
const BASE = readFileSync(join(EXAMPLE, 'prompt.md'), 'utf8');
interface Case {
  id: string;
  vars: { kind: string; message: string };
}
const CASES = parse(readFileSync(join(EXAMPLE, 'cases.yaml'), 'utf8')) as Case[];
const QUICK = 'For quick questions, keep the whole output under 50 words.';
const SETUP = 'For setup requests, write at least 144 words.';

function withLine(prompt: string, after: string, line: string): string {
  return prompt.replace(after, `${after}\n${line}`);
}
const A_LINE = 'For quick questions: answer the question itself.';
const B_LINE = 'For setup requests: explain how to set it up.';
const SPECIALIST_A = withLine(BASE, A_LINE, QUICK);
const SPECIALIST_B = withLine(BASE, B_LINE, SETUP);

/** Share of the example's cases whose own length check a prompt passes, per kind (4 samples each). */
function passRates(prompt: string): Record<string, number> {
  const passed: Record<string, number[]> = { 'quick question': [], 'setup request': [] };
  for (const c of CASES)
    for (let sample = 0; sample < 4; sample++) {
      const rendered = renderTemplate(prompt, c.vars);
      const words = countWords(
        simulateCompletion({
          messages: [{ role: 'user', content: rendered }],
          temperature: 0.7,
          sampleIndex: sample,
        }).text,
      );
      const ok = c.vars.kind === 'quick question' ? words <= 60 : words >= 120;
      passed[c.vars.kind]?.push(ok ? 1 : 0);
    }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return Object.fromEntries(Object.entries(passed).map(([kind, xs]) => [kind, mean(xs)]));
}

describe('kind-scoped instructions', () => {
  test('a kind line and a scope are read; the scope must name the kind', () => {
    expect(kindOf('Kind: setup request\nMessage: hi')).toBe('setup request');
    expect(kindOf('Request type: refund\n')).toBe('refund');
    expect(kindOf('Write a cold email about billing.')).toBeUndefined();
    expect(scopeOf(SETUP)).toEqual({ scope: 'setup requests', body: 'write at least 144 words.' });
    expect(scopeOf('For example, keep it short.')).toBeUndefined();
    expect(scopeMatches('setup requests', 'setup request')).toBe(true);
    expect(scopeMatches('quick questions', 'setup request')).toBe(false);
    expect(pluralKind('quick question')).toBe('quick questions');
    expect(pluralKind('billing query')).toBe('billing queries');
  });

  test('a scoped rule applies to its kind only, in place of the unscoped rule of its family', () => {
    const prompt = `Keep the whole output under 50 words.\n${SETUP}\nKind: KIND\nMessage: hi`;
    const setup = parseScopedInstructions(prompt.replace('KIND', 'setup request'));
    expect(setup.maxWords).toBeUndefined();
    expect(setup.minWords?.value).toBe(144);
    const quick = parseScopedInstructions(prompt.replace('KIND', 'quick question'));
    expect(quick.maxWords?.value).toBe(50);
    expect(quick.minWords).toBeUndefined();
  });

  test('scoped sentences inside a firm paragraph keep their scope and their firmness', () => {
    const prompt = `Important: ${QUICK} ${SETUP}\nKind: setup request\nMessage: hi`;
    const setup = parseScopedInstructions(prompt);
    expect(setup.maxWords).toBeUndefined();
    expect(setup.minWords).toMatchObject({ value: 144, firm: true });
  });

  test('without a kind line the prompt reads exactly as before', () => {
    for (const prompt of [
      `Write a cold email about billing.\n${SETUP}\nKeep it under 100 words.`,
      'For best results, keep it under 80 words. Mention the price.',
    ])
      expect(parseScopedInstructions(prompt)).toEqual(parseInstructions(prompt));
  });
});

function feedback(prompt: string, failing: { id: string; check: string }[]): MutatorFeedback {
  const kindOfCase = (id: string) => CASES.find((c) => c.id === id)?.vars as Case['vars'];
  const checkOf = (name: string) =>
    name.startsWith('quick')
      ? { name, type: 'word-count', reason: '92 words, more than the maximum of 60' }
      : { name, type: 'word-count', reason: '84 words, fewer than the minimum of 120' };
  return {
    format: MUTATOR_FEEDBACK_FORMAT,
    strategy: 'focused',
    incumbent: {
      prompt,
      chars: prompt.length,
      placeholders: findPlaceholders(prompt),
      keep_blocks: extractKeepBlocks(prompt).blocks,
      score: { total: 0.5, checks: 0.5 },
      criteria: {},
    },
    max_chars: Math.floor(prompt.length * 1.5),
    failing_cases: failing.map(({ id, check }) => ({
      case_id: id,
      vars: kindOfCase(id),
      score: 0.5,
      output_excerpt: '…',
      failed_checks: [checkOf(check)],
      judge: null,
      failed_expectations: [],
    })),
    check_failures: [...new Set(failing.map((f) => f.check))].map((name) => ({
      name,
      type: 'word-count',
      failed: failing.filter((f) => f.check === name).length,
      total: 9,
    })),
    history: [],
    guidance: '',
  };
}

const QUICK_CHECK = 'quick answer max 60 words';
const SETUP_CHECK = 'setup walk-through min 120 words';

describe('the inbox-replies landscape', () => {
  test('one length rule for every reply helps one kind and not the other', () => {
    const unscoped = `${BASE.trimEnd()}\nKeep the whole output under 50 words.\n`;
    const base = passRates(BASE);
    const short = passRates(unscoped);
    expect(base['quick question']).toBeLessThan(0.1);
    expect(base['setup request']).toBeLessThan(0.4);
    expect(short['quick question']).toBeGreaterThan(0.8);
    expect(short['setup request']).toBeLessThanOrEqual(base['setup request'] as number);
  });

  test('the mutator sometimes scopes a rule to the kind its failures are, in that kind’s paragraph', () => {
    const input = feedback(BASE, [
      { id: 'connect-google', check: SETUP_CHECK },
      { id: 'dark-mode', check: QUICK_CHECK },
      { id: 'booking-page', check: SETUP_CHECK },
    ]);
    const replies = Array.from({ length: 200 }, (_, seed) => proposeMutation(input, createRng(seed)));
    const scoped = replies.filter((r) => r.hypothesis.startsWith('Scoping'));
    expect(scoped.length).toBeGreaterThan(30);
    for (const reply of scoped) {
      const lines = reply.prompt.split('\n');
      const added = lines.find((line) => !BASE.split('\n').includes(line)) ?? '';
      const kind = /^For (quick questions|setup requests), /.exec(added)?.[1];
      expect(kind).toBeDefined();
      const header = lines.findIndex((line) => line.startsWith(`For ${kind}:`));
      expect(lines[header + 1]).toBe(added);
    }
    // Failures of both kinds in one check give no kind to scope to.
    const mixed = feedback(BASE, [
      { id: 'connect-google', check: SETUP_CHECK },
      { id: 'dark-mode', check: SETUP_CHECK },
    ]);
    for (let seed = 0; seed < 50; seed++)
      expect(proposeMutation(mixed, createRng(seed)).hypothesis).not.toMatch(/^Scoping/);
  });

  test('a lineage with one kind’s length rule restates it instead of giving the other kind its own', () => {
    const input = feedback(SPECIALIST_A, [
      { id: 'connect-google', check: SETUP_CHECK },
      { id: 'booking-page', check: SETUP_CHECK },
    ]);
    for (let seed = 0; seed < 50; seed++) {
      const reply = proposeMutation(input, createRng(seed));
      expect(reply.prompt).not.toContain('For setup requests, write');
    }
  });

  test('a clean three-way merge of two specialists is the combined prompt, better on both kinds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ar-sim-merge-'));
    try {
      writeFileSync(join(dir, 'base.md'), BASE);
      writeFileSync(join(dir, 'a.md'), SPECIALIST_A);
      writeFileSync(join(dir, 'b.md'), SPECIALIST_B);
      // Exit status 0: no conflicts.
      const merged = execFileSync('git', ['merge-file', '-p', 'a.md', 'base.md', 'b.md'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(merged).toBe(withLine(SPECIALIST_A, B_LINE, SETUP));
      const a = passRates(SPECIALIST_A);
      const b = passRates(SPECIALIST_B);
      const both = passRates(merged);
      expect(a['quick question']).toBeGreaterThan(0.8);
      expect(b['setup request']).toBeGreaterThan(0.8);
      expect(both['quick question']).toBeGreaterThan(0.8);
      expect(both['setup request']).toBeGreaterThan(0.8);
      expect(a['setup request']).toBeLessThan(0.4);
      expect(b['quick question']).toBeLessThan(0.1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
