/**
 * Prompt templates (docs/design/experiment-format.md): only `{{identifier}}` (inner spaces allowed)
 * is a placeholder; every other brace is literal; values are inserted verbatim (no HTML escaping)
 * in one pass, so a value containing `{{x}}` is never expanded again.
 * `<!-- keep -->…<!-- /keep -->` marks text every mutation must keep verbatim; the markers
 * themselves are not sent.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const KEEP_OPEN = '<!-- keep -->';
const KEEP_CLOSE = '<!-- /keep -->';
const KEEP_MARKER = /<!-- \/?keep -->/g;

/** Placeholder names in order of first appearance, without duplicates. */
export function findPlaceholders(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) names.add(match[1] as string);
  return [...names];
}

export class MissingVarsError extends Error {
  readonly missing: string[];
  constructor(missing: string[]) {
    super(`no value for ${missing.map((m) => `{{${m}}}`).join(', ')}`);
    this.name = 'MissingVarsError';
    this.missing = missing;
  }
}

/** Fill placeholders from `vars`; throws MissingVarsError naming every placeholder without a value. */
export function renderTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  const missing = findPlaceholders(template).filter((name) => !Object.hasOwn(vars, name));
  if (missing.length > 0) throw new MissingVarsError(missing);
  return template.replace(KEEP_MARKER, '').replace(PLACEHOLDER, (_, name: string) => vars[name] as string);
}

/**
 * How many leading characters of the rendered template are the template's own text, the same
 * whatever the vars: everything before its first placeholder (all of it without one).
 */
export function templateLead(template: string): number {
  const text = template.replace(KEEP_MARKER, '');
  const first = text.search(new RegExp(PLACEHOLDER.source));
  return first < 0 ? text.length : first;
}

export interface KeepBlocks {
  /** The protected texts, markers excluded, in order. */
  blocks: string[];
  /** Unbalanced or nested markers, described for a person. */
  problems: string[];
  /** The same problems with their 1-based line apart from the text. */
  issues: { line: number; message: string }[];
}

export function extractKeepBlocks(text: string): KeepBlocks {
  const blocks: string[] = [];
  const issues: { line: number; message: string }[] = [];
  let open: number | undefined;
  for (const match of text.matchAll(KEEP_MARKER)) {
    const at = match.index;
    const line = lineOf(text, at);
    if (match[0] === KEEP_OPEN) {
      if (open !== undefined)
        issues.push({ line, message: `"${KEEP_OPEN}" inside another keep block (they do not nest)` });
      else open = at + KEEP_OPEN.length;
    } else if (open === undefined) {
      issues.push({ line, message: `"${KEEP_CLOSE}" without a matching "${KEEP_OPEN}"` });
    } else {
      blocks.push(text.slice(open, at));
      open = undefined;
    }
  }
  if (open !== undefined)
    issues.push({ line: lineOf(text, open), message: `"${KEEP_OPEN}" is never closed` });
  const problems = issues.map((issue) => `line ${issue.line}: ${issue.message}`);
  return { blocks, problems, issues };
}

/** 1-based line number of a character offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
