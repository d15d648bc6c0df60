/**
 * The repo explains itself: every relative link in its Markdown leads to a file (and heading)
 * that exists, every `docs/….md` a comment names exists, and nothing cites a document or
 * tracker outside the repo (scripts/check-references.mjs --check, which also holds the map
 * from the old section numbers to docs/design/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/built-cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts/check-references.mjs');

/** `docs/….md` paths of another repository: codex-cli.ts checked its flags against openai/codex's. */
const OTHER_REPOS = new Set(['docs/exec.md']);

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, keep, out);
    else if (keep(name)) out.push(path);
  }
  return out;
}

const MARKDOWN = [
  ...readdirSync(REPO_ROOT)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(REPO_ROOT, name)),
  ...walk(join(REPO_ROOT, 'docs'), (name) => name.endsWith('.md')),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(slug(heading[1] as string));
  }
  return anchors;
}

/** Relative links of a Markdown text outside fenced code: `[text](target)`. */
function linksOf(text: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] as string;
      if (!/^[a-z]+:/i.test(target)) links.push(target);
    }
  }
  return links;
}

/** Problems with the relative links of one Markdown file. */
function brokenLinks(file: string): string[] {
  const where = relative(REPO_ROOT, file);
  return linksOf(readFileSync(file, 'utf8')).flatMap((link) => {
    const [path, anchor] = link.split('#') as [string, string | undefined];
    const target = path === '' ? file : join(dirname(file), path);
    if (!existsSync(target)) return [`${where}: ${link} (no such file)`];
    if (anchor === undefined || !target.endsWith('.md')) return [];
    return anchorsOf(target).has(anchor) ? [] : [`${where}: ${link} (no such heading)`];
  });
}

describe('the repo explains itself', () => {
  it('has a docs/design/ file for every contract the index lists', () => {
    const index = join(REPO_ROOT, 'docs/design/README.md');
    expect(linksOf(readFileSync(index, 'utf8')).length).toBeGreaterThanOrEqual(16);
    expect(brokenLinks(index)).toEqual([]);
  });

  it('has no relative Markdown link to a file or heading that does not exist', () => {
    expect(MARKDOWN.length).toBeGreaterThan(20);
    expect(MARKDOWN.flatMap(brokenLinks)).toEqual([]);
  });

  it('names only docs/ files that exist in source, tests, benchmarks and scripts', () => {
    const sources = ['src', 'test', 'bench', 'scripts'].flatMap((dir) =>
      walk(join(REPO_ROOT, dir), (name) => /\.(ts|js|mjs)$/.test(name)),
    );
    const missing = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bdocs\/[\w./-]*\.md\b/g)]
        .map((match) => match[0])
        .filter((path) => !existsSync(join(REPO_ROOT, path)))
        .filter((path) => !OTHER_REPOS.has(path))
        .map((path) => `${relative(REPO_ROOT, file)}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('cites no document or tracker outside the repo (check-references --check)', () => {
    expect(() => execFileSync(process.execPath, [SCRIPT, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('maps old section citations to their docs/design/ files, idempotently', () => {
    const cite = (n: string) => `${'SP'}${'EC'} ${n}`;
    const source = [
      `// The pool (${cite('14')}).`,
      `// Judged (${cite('6/7')}).`,
      `// Inputs (${cite('12')}) under judging.inputs.`,
      `// Shapes (${cite('12')}), tracked (${'iss'}ue 5, item 2).`,
    ].join('\n');
    const program = `
      import { rewrite } from ${JSON.stringify(SCRIPT)};
      const once = rewrite(process.argv[1], 'src/x.ts');
      console.log(JSON.stringify({ once, twice: rewrite(once, 'src/x.ts') }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program, source], {
      encoding: 'utf8',
    });
    const { once, twice } = JSON.parse(out) as { once: string; twice: string };
    expect(once.split('\n')).toEqual([
      '// The pool (docs/design/pareto-search.md).',
      '// Judged (docs/design/judge-protocol.md, docs/design/grader-protocol.md).',
      '// Inputs (docs/design/judge-protocol.md) under judging.inputs.',
      '// Shapes (docs/design/prompt-shapes.md), tracked.',
    ]);
    expect(twice).toBe(once);
  });
});
