#!/usr/bin/env node
/**
 * Keeps every reference in the repo pointing into the repo. The product's contracts were first
 * written in a document kept outside it, cited as "SPEC <section>", and comments named the
 * tracker's issues ("issue 18", "issue 5, item 2"). The contracts now live in docs/design/; this
 * script holds the mapping from each old section to the file that holds it, and what each
 * tracker reference meant.
 *
 *   node scripts/check-references.mjs           rewrite what it finds, in place (idempotent)
 *   node scripts/check-references.mjs --check   change nothing; list every outside reference
 *                                               left and exit 1 if there is one
 *
 * It reads src, test, bench, scripts, .ci, docs and the Markdown files at the root.
 * CHANGELOG.md is read too: its entries are what users read about this version, and a
 * citation they cannot follow helps no one. Nothing is excluded: no file in the tree (test
 * fixtures included) cites another tracker or document by these words.
 * In Markdown (outside fenced code) a section becomes a link relative to the file; elsewhere
 * the repo path. test/unit/docs-links.test.ts runs `--check` and checks the links resolve.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Section of the old outside document → the repo file that holds that contract now. */
export const SECTIONS = {
  1: 'ARCHITECTURE.md',
  2: 'docs/design/project-layout.md',
  3: 'docs/design/experiment-format.md',
  4: 'docs/design/rubric-format.md',
  5: 'docs/design/checks.md',
  6: 'docs/design/judge-protocol.md',
  7: 'docs/design/grader-protocol.md',
  8: 'docs/design/scoring-and-decisions.md',
  9: 'docs/design/git-layout.md',
  10: 'docs/design/run-records.md',
  11: 'docs/design/commands-and-exit-codes.md',
  12: 'docs/design/prompt-shapes.md',
  13: 'docs/design/paired-acceptance.md',
  14: 'docs/design/pareto-search.md',
  15: 'docs/design/judge-reliability.md',
  16: 'docs/design/cost-engine.md',
  17: 'docs/design/isolation.md',
};

/** Section 12 also held the judging settings; a line about the reviewers' inputs means those. */
const INPUTS_LINE = /judging\.inputs|inputs\/|input_NN/;

/**
 * Tracker references and what they meant, applied in order before the sections. A tracker
 * reference beside a section citation is dropped (the section says it); alone in parentheses
 * it added nothing and goes; the rest say in words what the issue was.
 */
const TRACKER_FIXES = [
  // "(issue 6, SPEC 10)", "(SPEC 3, issue 2)": the section stays.
  [/\b[Ii]ssue \d+(?:, item \d+)?, (?=SPEC ?\d)/g, ''],
  [/(SPEC ?\d+(?:[/.]\d+)?), issue \d+(?:, item \d+)?\)/g, '$1)'],
  // "(issue 22, `node bench/…`": the rest of the parenthesis stays.
  [/ ?\([Ii]ssue \d+(?:, item \d+)?\)/g, ''],
  [/\(issue \d+(?:, item \d+)?, /g, '('],
  [/, ISSUE19 semantics\)/g, ')'],
  // Regression tests opened with the review issue that found the bug.
  [/\bIssue 22: /g, 'Regression: '],
  [/Issue 20's "a panel experiment/g, 'The promise "a panel experiment'],
  [/The examples issue 9 asks for, held to its bar/g, 'The examples we ship, held to their bar'],
  [/ship the three examples of issue 9/g, 'ship the three examples'],
  [/the four criteria of issue 9/g, 'the four criteria of its rubric'],
  [/The examples of issue 17: prompt shapes/g, 'The prompt-shape examples'],
  [/taken after issue 16 \(no bundle/g, 'taken after version 2 made the house plainer (no bundle'],
  [/The issue's target/g, 'The target'],
  [/The issue asks for under a minute/g, 'The target is under a minute'],
  [/the batch work of\n(\s*)the cost issue uses/g, 'the batch work of\n$1the cost engine uses'],
  [/the cost issue uses/g, 'the cost engine uses'],
  // Two user-facing messages cited the section; the message says enough without it.
  [/cannot offer tools to the model \(SPEC 12\):/g, 'cannot offer tools to the model:'],
  [/the request must end with a user turn \(SPEC 12\)/g, 'the request must end with a user turn'],
  // bench/cost.mjs writes this sentence into BENCHMARKS.md: it reads better without a path.
  [/\(interactive by SPEC 16\)/g, '(interactive by design)'],
  [/re-judgings \(SPEC 15: fresh, cache bypassed/g, 're-judgings (fresh, cache bypassed'],
  // Names of the outside document itself.
  [
    /lists every command of SPEC section 11/g,
    'lists every command of docs/design/commands-and-exit-codes.md',
  ],
  [/has exactly the SPEC columns/g, 'has exactly the columns of docs/design/run-records.md'],
];

/** "SPEC 6", "SPEC 6.2", "SPEC 6/7", "SPEC 6, 7, 17", "SPEC 3 and 13". */
const SPEC_REF = /\bSPEC ?(\d+)(?:\.\d+)?((?:(?:, ?| and | or |\/)\d+(?:\.\d+)?)*)/g;

/** What `--check` reports: any citation of the outside document or the tracker. */
const OUTSIDE = [/\bSPEC\b/, /\bissue ?[0-9]+/i];

const DIRS = ['src', 'test', 'bench', 'scripts', '.ci', 'docs'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);
const TEXT = /\.(ts|mts|js|mjs|cjs|json|md|yaml|yml|txt|sh|py)$|^run$/;
const SELF = 'scripts/check-references.mjs';

function walk(dir, out) {
  for (const name of readdirSync(join(ROOT, dir))) {
    if (SKIP_DIRS.has(name)) continue;
    const path = dir === '' ? name : `${dir}/${name}`;
    const stat = statSync(join(ROOT, path));
    if (stat.isDirectory()) walk(path, out);
    else if (TEXT.test(name)) out.push(path);
  }
  return out;
}

export function listFiles() {
  const files = readdirSync(ROOT).filter((name) => name.endsWith('.md'));
  for (const dir of DIRS) {
    try {
      walk(dir, files);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  return files.filter((file) => file !== SELF).sort();
}

function sectionPaths(first, rest, line) {
  const numbers = [first, ...(rest.match(/\d+(?:\.\d+)?/g) ?? [])].map((n) => Number.parseInt(n, 10));
  const paths = numbers.map((n) => {
    if (n === 12 && INPUTS_LINE.test(line)) return SECTIONS[6];
    const path = SECTIONS[n];
    if (path === undefined) throw new Error(`no repo file for section ${n} (line: ${line.trim()})`);
    return path;
  });
  return [...new Set(paths)];
}

function linkText(path) {
  return path === 'ARCHITECTURE.md'
    ? 'architecture'
    : (path.split('/').pop() ?? path).replace(/\.md$/, '').replaceAll('-', ' ');
}

/** One file's text with every section citation and tracker reference rewritten. */
export function rewrite(text, file) {
  let fixed = text;
  for (const [pattern, replacement] of TRACKER_FIXES) fixed = fixed.replace(pattern, replacement);
  const markdown = file.endsWith('.md');
  let fenced = false;
  const lines = fixed.split('\n').map((line) => {
    if (markdown && /^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const next = line.replace(SPEC_REF, (_match, first, rest) => {
      const paths = sectionPaths(first, rest, line);
      if (!markdown || fenced) return paths.join(', ');
      const from = dirname(file);
      return paths.map((p) => `[${linkText(p)}](${relative(from, p).split(sep).join('/')})`).join(', ');
    });
    // A line that was never wrapped (a generated paragraph, a table row) stays one line; a
    // wrapped one keeps its own width when it was wider than the usual.
    const wrapped = next.length > line.length && line.length <= MAX_WRAPPED && !fenced;
    return { text: next, limit: wrapped ? Math.max(WIDTH, line.length) : undefined };
  });
  return reflow(lines, markdown)
    .map((line) => line.text)
    .join('\n');
}

/**
 * A comment or Markdown line that a path made longer than its width moves its last words to the
 * next line of the same paragraph (or a new one), so the text keeps its wrap. Only lines this
 * script lengthened move, so a second run changes nothing.
 */
function reflow(input, markdown) {
  const lines = [...input];
  for (let i = 0; i < lines.length; i++) {
    const { text, limit } = lines[i];
    if (limit === undefined || text.length <= limit) continue;
    const single = markdown ? null : /^(\s*)\/\*\* (.*) \*\/$/.exec(text);
    if (single !== null) {
      // A one-line doc comment grown too long becomes a block.
      const [, indent, body] = single;
      lines.splice(
        i,
        1,
        { text: `${indent}/**` },
        { text: `${indent} * ${body}`, limit },
        { text: `${indent} */` },
      );
      continue;
    }
    const parts = paragraphLine(text, markdown);
    if (parts === null) continue;
    const cut = cutAt(text, limit, parts.prefix.length);
    if (cut === -1) continue;
    const tail = text.slice(cut + 1);
    lines[i] = { text: text.slice(0, cut) };
    const following = i + 1 < lines.length ? paragraphLine(lines[i + 1].text, markdown) : null;
    if (following !== null && following.prefix === parts.continuation && following.body !== '') {
      lines[i + 1] = {
        text: `${parts.continuation}${tail} ${following.body}`,
        limit: Math.max(WIDTH, lines[i + 1].limit ?? 0),
      };
    } else {
      lines.splice(i + 1, 0, { text: `${parts.continuation}${tail}`, limit: WIDTH });
    }
  }
  return lines;
}

/** The last space within `width` outside a code span whose tail does not read as a list or a quote. */
function cutAt(line, width, start) {
  for (let cut = line.lastIndexOf(' ', width); cut > start; cut = line.lastIndexOf(' ', cut - 1)) {
    const ticks = line.slice(0, cut).replaceAll('```', '').split('`').length - 1;
    if (ticks % 2 === 0 && !STARTS_BLOCK.test(line.slice(cut + 1))) return cut;
  }
  return -1;
}

const WIDTH = 100;
const MAX_WRAPPED = 120;
const STARTS_BLOCK = /^([-│├└@|*#>+]|\d+\. )/;

/** A line of running text: `prefix` before its words, and how its next line begins. */
function paragraphLine(line, markdown) {
  if (!markdown) {
    const comment = /^(\s*(?:\*|\/\/|#) )(\S.*)$/.exec(line);
    if (comment === null || STARTS_BLOCK.test(comment[2])) return null;
    return { prefix: comment[1], continuation: comment[1], body: comment[2] };
  }
  const prose = /^(\s*)((?:[-*] |\d+\. )?)(\S.*)$/.exec(line);
  if (prose === null || /^[|#>]/.test(prose[3])) return null;
  const [, indent, marker, body] = prose;
  return { prefix: indent + marker, continuation: indent + ' '.repeat(marker.length), body };
}

/** Every line of the tree that still cites something outside the repo. */
export function findOutsideReferences() {
  const found = [];
  for (const file of listFiles()) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (OUTSIDE.some((pattern) => pattern.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

function main(argv) {
  if (argv.includes('--check')) {
    const found = findOutsideReferences();
    if (found.length === 0) return 0;
    console.error(`${found.length} reference(s) to a document or tracker outside the repo:`);
    for (const line of found) console.error(`  ${line}`);
    console.error('Cite the repo file that holds the contract (docs/design/), or say what the issue meant.');
    return 1;
  }
  let changed = 0;
  for (const file of listFiles()) {
    const path = join(ROOT, file);
    const text = readFileSync(path, 'utf8');
    const next = rewrite(text, file);
    if (next !== text) {
      writeFileSync(path, next);
      changed++;
      console.log(`rewrote ${file}`);
    }
  }
  const left = findOutsideReferences();
  console.log(`${changed} file(s) rewritten; ${left.length} reference(s) left for a person`);
  for (const line of left) console.log(`  ${line}`);
  return left.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
