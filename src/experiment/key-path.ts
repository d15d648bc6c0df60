/** A path into a user's file, as zod and our walkers produce it: keys and array indexes. */
export type KeyPath = readonly (string | number)[];

/** `models.judge.temperature`, `checks[2].value`, `[3].vars.topic`. */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** The value at `path` inside plain data, or undefined when any step is missing. */
export function readAtPath(data: unknown, path: KeyPath): unknown {
  let current: unknown = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

export function hasPath(data: unknown, path: KeyPath): boolean {
  if (path.length === 0) return true;
  const parent = readAtPath(data, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return false;
  return Object.hasOwn(parent, path[path.length - 1] as string | number);
}
