/**
 * promptfoo templates are Nunjucks; autoresearch only knows `{{identifier}}`. A plain
 * `{{ var }}` carries over as is; filters, expressions, tags and comments cannot, so they are
 * reported and left in the text (where they would be sent literally).
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const CONSTRUCT = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;
const SIMPLE = /^\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}$/;

export interface TemplateConstruct {
  text: string;
  kind: 'expression' | 'tag' | 'comment';
}

/** Every Nunjucks construct that is not a plain `{{ var }}`, in order, without duplicates. */
export function findUnsupportedConstructs(text: string): TemplateConstruct[] {
  const found = new Map<string, TemplateConstruct>();
  for (const match of text.matchAll(CONSTRUCT)) {
    const construct = match[0];
    if (SIMPLE.test(construct) || found.has(construct)) continue;
    const kind = construct.startsWith('{%') ? 'tag' : construct.startsWith('{#') ? 'comment' : 'expression';
    found.set(construct, { text: construct, kind });
  }
  return [...found.values()];
}

export function describeConstruct(construct: TemplateConstruct): string {
  switch (construct.kind) {
    case 'tag':
      return 'a Nunjucks tag (condition, loop, set or include): autoresearch templates have no logic, so it stays in the text and is sent as written';
    case 'comment':
      return 'a Nunjucks comment: promptfoo strips it, autoresearch would send it as written';
    case 'expression':
      return 'a Nunjucks expression (filter, attribute or call): only plain {{var}} placeholders are filled, so it is sent as written';
  }
}

export function usesTemplate(text: string): boolean {
  return /\{\{|\{%/.test(text);
}

/**
 * Fills plain placeholders with the case's values, as promptfoo renders assertion values per
 * test. Undefined when the text holds a construct that cannot be rendered here.
 */
export function renderPlaceholders(text: string, vars: Readonly<Record<string, string>>): string | undefined {
  if (findUnsupportedConstructs(text).length > 0) return undefined;
  // promptfoo renders a var it does not know as an empty string.
  return text.replace(PLACEHOLDER, (_, name: string) => vars[name] ?? '');
}

/** Placeholder names in order of first appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string))];
}
