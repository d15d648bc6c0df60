/**
 * promptfoo's `file://` references: a path relative to the config's folder, sometimes with a
 * `:functionName` suffix (scripts) and sometimes a glob, which the importer does not expand.
 */
import { existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';

export const FILE_PREFIX = 'file://';

export interface FileRef {
  /** The path as written (without the prefix and the function suffix). */
  path: string;
  absolute: string;
  /** Lowercased extension with its dot, e.g. ".yaml". */
  ext: string;
  functionName?: string;
  glob: boolean;
}

const SCRIPT_WITH_FUNCTION = /^(.+\.(?:[cm]?[jt]s|py|rb)):([A-Za-z_$][\w$]*)$/;
const GLOB = /[*?[\]{}]/;

export function isFileRef(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(FILE_PREFIX);
}

export function parseFileRef(reference: string, baseDir: string): FileRef {
  const rest = reference.startsWith(FILE_PREFIX) ? reference.slice(FILE_PREFIX.length) : reference;
  const named = SCRIPT_WITH_FUNCTION.exec(rest);
  const path = named ? (named[1] as string) : rest;
  return {
    path,
    absolute: isAbsolute(path) ? path : resolve(baseDir, path),
    ext: extname(path).toLowerCase(),
    ...(named ? { functionName: named[2] as string } : {}),
    glob: GLOB.test(path),
  };
}

/**
 * promptfoo also accepts a bare path (no `file://`) where a file is expected, when such a
 * file exists; a one-line string with a file extension that names an existing file is one.
 */
export function looksLikeExistingFile(value: string, baseDir: string): boolean {
  if (value.includes('\n') || value.length > 500 || !/\.[A-Za-z0-9]{1,5}$/.test(value.trim())) return false;
  const absolute = resolve(baseDir, value.trim());
  return existsSync(absolute) && statSync(absolute).isFile();
}

/**
 * How a generated file should name `absolute`: relative to `fromDir` when the file is inside
 * the project (so the project can move), absolute when it lies outside.
 */
export function portablePath(fromDir: string, absolute: string, projectRoot: string): string {
  const inProject = relative(projectRoot, absolute);
  if (inProject.startsWith('..') || isAbsolute(inProject)) return absolute;
  return relative(fromDir, absolute);
}
