/**
 * `prompt:` → the parts of the prompt (docs/design/prompt-shapes.md): a path is one user part named
 * `prompt`; a mapping gives `system` and `messages[i]`, each inline text (fixed) or a file
 * (optimisable). Reads the part files and checks the declaration itself — which parts `optimise`
 * names, and with several optimisable parts that none holds a part marker line (part-texts.ts) — at
 * its key in experiment.yaml.
 */
import { realpath } from 'node:fs/promises';
import type { Problem } from '../errors.js';
import { suggestNearest } from '../did-you-mean.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import { findMarkerLine } from './part-texts.js';
import { readReferencedFile, type Where } from './referenced-file.js';
import type { PartText, PromptParts } from './schema.js';
import type { PromptPart } from './types.js';
import type { PromptTemplate } from './validate-prompt.js';

export interface ReadParts {
  /** In request order; undefined when a part could not be read. */
  parts?: PromptPart[];
  /** Every part's text with where it sits, for the placeholder checks. */
  templates: PromptTemplate[];
}

export async function readPromptParts(
  value: string | PromptParts,
  where: Where,
  problems: Problem[],
): Promise<ReadParts> {
  if (typeof value === 'string') {
    const read = await readReferencedFile(['prompt'], 'prompt', value, where, problems);
    if (!read) return { templates: [] };
    const part: PromptPart = {
      name: 'prompt',
      role: 'user',
      text: read.text,
      path: read.path,
      optimise: true,
    };
    return { parts: [part], templates: [{ name: 'prompt', text: read.text, file: read.path }] };
  }
  const declared: { name: string; role: PromptPart['role']; text: PartText; key: KeyPath }[] = [];
  if (value.system !== undefined)
    declared.push({ name: 'system', role: 'system', text: value.system, key: ['prompt', 'system'] });
  for (const [i, message] of (value.messages ?? []).entries())
    declared.push({
      name: `messages[${i}]`,
      role: message.role,
      text: message.content,
      key: ['prompt', 'messages', i, 'content'],
    });
  if (declared.length === 0) {
    problems.push(at(where, ['prompt'], 'the prompt has no parts', 'give `system`, `messages` or both'));
    return { templates: [] };
  }
  const chosen = chooseOptimised(value.optimise, declared, where, problems);
  const parts: PromptPart[] = [];
  const templates: PromptTemplate[] = [];
  let unreadable = false;
  // An optimised part writes its file: a second part read from that file would change with it.
  const fileOwners = new Map<string, { name: string; key: KeyPath; optimise: boolean }>();
  for (const part of declared) {
    const base = { name: part.name, role: part.role, optimise: chosen.has(part.name) };
    if (typeof part.text === 'string') {
      parts.push({ ...base, text: part.text });
      const { line, col } = where.locate(part.key);
      templates.push({
        name: part.name,
        text: part.text,
        file: where.file,
        inline: { keyPath: formatKeyPath(part.key), line, col },
      });
      continue;
    }
    const key = [...part.key, 'file'];
    const read = await readReferencedFile(key, `\`${part.name}\``, part.text.file, where, problems);
    if (!read) {
      unreadable = true;
      continue;
    }
    const real = await realpath(read.path).catch(() => read.path);
    const owner = fileOwners.get(real);
    if (owner && (owner.optimise || base.optimise))
      problems.push(
        at(
          where,
          key,
          `\`${formatKeyPath(key)}\` and \`${formatKeyPath(owner.key)}\` are both read from ${part.text.file}, and ${owner.optimise ? `\`${owner.name}\`` : `\`${part.name}\``} is optimised: an edit kept for one part would be overwritten by the other's text`,
          'give each part its own file (copy it), or make the shared text inline where it is fixed',
        ),
      );
    else if (!owner) fileOwners.set(real, { name: part.name, key, optimise: base.optimise });
    parts.push({ ...base, text: read.text, path: read.path });
    templates.push({ name: part.name, text: read.text, file: read.path });
    const marker = chosen.size > 1 && base.optimise ? findMarkerLine(read.text) : undefined;
    if (marker !== undefined)
      problems.push({
        severity: 'error',
        location: { file: read.path, line: lineOf(read.text, marker) },
        keyPath: formatKeyPath(key),
        message: `\`${part.name}\` holds the line "${marker}", which marks where a part begins when several parts are optimised`,
        hint: 'reword or remove that line',
      });
  }
  return unreadable ? { templates } : { parts, templates };
}

/** The names of the optimisable parts, after reporting every problem with `optimise`. */
function chooseOptimised(
  optimise: readonly string[] | undefined,
  declared: readonly { name: string; text: PartText }[],
  where: Where,
  problems: Problem[],
): Set<string> {
  const fileBacked = declared.filter((p) => typeof p.text !== 'string').map((p) => p.name);
  if (optimise === undefined) {
    if (fileBacked.length === 0) {
      problems.push(
        at(
          where,
          ['prompt'],
          'every part of the prompt is inline text, so the loop has nothing to optimise',
          'put the part to optimise in a file, e.g. `system: { file: system.md }`',
        ),
      );
    }
    return new Set(fileBacked);
  }
  const names = declared.map((p) => p.name);
  const chosen = new Set<string>();
  for (const [i, name] of optimise.entries()) {
    const key = ['prompt', 'optimise', i];
    if (!names.includes(name)) {
      const near = suggestNearest(name, names);
      problems.push(
        at(
          where,
          key,
          `\`${name}\` is not a part of this prompt`,
          near ? `did you mean \`${near}\`?` : `its parts: ${names.join(', ')}`,
        ),
      );
    } else if (!fileBacked.includes(name)) {
      problems.push(
        at(
          where,
          key,
          `\`${name}\` is inline text, so it is fixed and cannot be optimised`,
          'move its text to a file and point at it: `{ file: <name>.md }`',
        ),
      );
    } else {
      chosen.add(name);
    }
  }
  if (optimise.length === 0)
    problems.push(
      at(where, ['prompt', 'optimise'], '`optimise` names no part, so the loop has nothing to optimise'),
    );
  return chosen;
}

function lineOf(text: string, line: string): number {
  return text.split('\n').findIndex((l) => l.replace(/\r$/, '') === line) + 1;
}

function at(where: Where, key: KeyPath, message: string, hint?: string): Problem {
  return {
    severity: 'error',
    location: { file: where.file, ...where.locate(key) },
    keyPath: formatKeyPath(key),
    message,
    ...(hint === undefined ? {} : { hint }),
  };
}
