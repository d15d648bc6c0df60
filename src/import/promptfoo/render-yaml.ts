/** Small YAML renderers for the generated files: one-line flow maps where they stay readable, comments that stay comments. */
import { stringify } from 'yaml';

/** A value as one line of YAML flow style, e.g. `{ provider: openai, model: gpt-4o }`. */
export function flowYaml(value: unknown): string {
  return stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim();
}

/** A YAML list item, one line when short and flat, else block style; indented by `indent` spaces. */
export function listItemYaml(value: Record<string, unknown>, indent: number): string {
  const pad = ' '.repeat(indent);
  const flat = Object.values(value).every(
    (v) => typeof v !== 'object' || v === null || (Array.isArray(v) && v.every((i) => typeof i !== 'object')),
  );
  const flow = flowYaml(value);
  if (flat && flow.length <= 100 && !flow.includes('\n')) return `${pad}- ${flow}`;
  return stringify([value], { lineWidth: 0 })
    .trimEnd()
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n');
}

/** Text as comment lines: one `# ` line per line of text, whitespace runs collapsed. */
export function commentLines(text: string, prefix = '# '): string[] {
  return text.split('\n').map((line) => `${prefix}${line.replace(/\s+/g, ' ').trim()}`.trimEnd());
}
