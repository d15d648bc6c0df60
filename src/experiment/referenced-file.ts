/**
 * Reading a file experiment.yaml points to (the prompt or one of its parts, cases, rubric,
 * output schema, tools): resolved against the experiment's folder, and a problem at the key
 * that names it when it cannot be read.
 */
import { dirname, resolve } from 'node:path';
import type { Problem } from '../errors.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import { invalidUtf8Problem, readSourceFile } from './read-source.js';
import type { Position } from './yaml-source.js';

/** experiment.yaml and a way to point at one of its keys. */
export interface Where {
  file: string;
  locate(path: KeyPath): Position;
}

/** The file's absolute path and text, or undefined with a problem pushed (`label`: "prompt", "cases", …). */
export async function readReferencedFile(
  keyPath: KeyPath,
  label: string,
  value: string,
  where: Where,
  problems: Problem[],
): Promise<{ path: string; text: string } | undefined> {
  const path = resolve(dirname(where.file), value);
  const content = await readSourceFile(path);
  if (content.ok) return { path, text: content.text };
  if (content.invalidUtf8) {
    problems.push(invalidUtf8Problem(path, content.invalidUtf8));
    return undefined;
  }
  problems.push({
    severity: 'error',
    location: { file: where.file, ...where.locate(keyPath) },
    keyPath: formatKeyPath(keyPath),
    message: `${label} file "${value}" ${content.reason}`,
    hint: `paths are relative to the experiment's folder; this one resolves to ${path}`,
  });
  return undefined;
}
