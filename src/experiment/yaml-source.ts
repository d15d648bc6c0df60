/**
 * YAML with positions. Every problem in a user's file names a line and column, so the
 * document is parsed once with a LineCounter and problems are located by walking its nodes.
 */
import { type Document, LineCounter, isMap, isPair, isScalar, isSeq, type Node, parseDocument } from 'yaml';
import type { Problem } from '../errors.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import {
  type ExpansionBreach,
  findExpansionBreach,
  MAX_YAML_DEPTH,
  MAX_YAML_EXPANDED_SIZE,
} from './yaml-expansion.js';

export interface Position {
  line: number;
  col: number;
}

export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** The document as plain data (last one wins for duplicate keys); undefined when unusable. */
  data: unknown;
  /** Syntax errors, duplicate keys and YAML warnings. */
  problems: Problem[];
  /** False when a syntax error makes the structure untrustworthy (duplicate keys alone do not). */
  usable: boolean;
}

const TRUSTED_ERROR_CODES = new Set(['DUPLICATE_KEY']);

/**
 * A part name such as `messages[0]` inside a flow list (`optimise: [messages[0]]`) reads as a
 * nested list: say so, since the generic hint would not lead there.
 */
function syntaxHint(line: string): string {
  if (/\[[^\]'"]*\bmessages\[\d+\]/.test(line))
    return `quote part names that hold brackets: optimise: ['messages[0]'] (or write the list one item per line)`;
  return 'check indentation, quotes and brackets on this line and the one before';
}

export function parseYamlSource(file: string, text: string): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  const problems: Problem[] = [];
  // The parser gives up on nesting far past our limit, and every error after that is an echo of it.
  const overflow = doc.errors.find((e) => e.message.includes('Maximum call stack size exceeded'));
  if (overflow) {
    const at = overflow.linePos?.[0] ?? lineCounter.linePos(overflow.pos[0]);
    return { file, doc, lineCounter, data: undefined, problems: [tooDeep(file, at, '')], usable: false };
  }
  for (const error of doc.errors) {
    const at = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
    if (error.code === 'DUPLICATE_KEY') {
      const path = findPathAtOffset(doc, error.pos[0]);
      const key = path?.[path.length - 1];
      problems.push({
        severity: 'error',
        location: { file, line: at.line, col: at.col },
        keyPath: path ? formatKeyPath(path) : '',
        message: key === undefined ? 'duplicate key' : `duplicate key \`${key}\``,
        hint: 'a key may appear only once in a mapping; keep one and delete the other',
      });
    } else {
      problems.push({
        severity: 'error',
        location: { file, line: at.line, col: at.col },
        keyPath: '',
        message: `YAML syntax error: ${stripPosition(error.message)}`,
        hint: syntaxHint(text.split('\n')[at.line - 1] ?? ''),
      });
    }
  }
  for (const warning of doc.warnings) {
    const at = warning.linePos?.[0] ?? lineCounter.linePos(warning.pos[0]);
    problems.push({
      severity: 'warning',
      location: { file, line: at.line, col: at.col },
      keyPath: '',
      message: `YAML: ${stripPosition(warning.message)}`,
    });
  }
  const usable = doc.errors.every((e) => TRUSTED_ERROR_CODES.has(e.code));
  let data: unknown;
  if (usable) {
    const breach = findExpansionBreach(doc);
    if (breach !== undefined) {
      problems.push(describeBreach(file, breach, lineCounter));
      return { file, doc, lineCounter, data: undefined, problems, usable: false };
    }
    try {
      // Aliases are bounded above by the expanded size, so yaml's own alias count is not needed.
      data = doc.toJS({ maxAliasCount: -1 });
    } catch (error) {
      problems.push({
        severity: 'error',
        location: { file, line: 1, col: 1 },
        keyPath: '',
        message: `YAML could not be read: ${error instanceof Error ? error.message : String(error)}`,
      });
      return { file, doc, lineCounter, data: undefined, problems, usable: false };
    }
  }
  return { file, doc, lineCounter, data, problems, usable };
}

function tooDeep(file: string, at: Position, keyPath: string): Problem {
  return {
    severity: 'error',
    location: { file, line: at.line, col: at.col },
    keyPath,
    message: `nested more than ${MAX_YAML_DEPTH} levels deep (mappings and lists, aliases expanded)`,
    hint: 'flatten the structure; no experiment input needs that many levels (docs/experiment.md, "Limits")',
  };
}

function describeBreach(file: string, breach: ExpansionBreach, lineCounter: LineCounter): Problem {
  if (breach.kind === 'depth')
    return tooDeep(file, lineCounter.linePos(breach.offset), formatKeyPath(breach.path));
  if (breach.kind === 'cycle') {
    const at = lineCounter.linePos(breach.offset);
    return {
      severity: 'error',
      location: { file, line: at.line, col: at.col },
      keyPath: formatKeyPath(breach.path),
      message: `alias *${breach.anchor} points into the node it names (&${breach.anchor}), so it never ends`,
      hint: `an alias may repeat a node written before it, not one that contains the alias; copy the content instead`,
    };
  }
  return {
    severity: 'error',
    location: { file, line: 1, col: 1 },
    keyPath: '',
    message: `with its aliases expanded the document would hold about ${Math.round(breach.size / 1048576)} MiB, over the limit of ${MAX_YAML_EXPANDED_SIZE / 1048576} MiB`,
    hint: 'aliases that repeat aliases multiply the content; write the repeated parts once (docs/experiment.md, "Limits")',
  };
}

/** yaml's pretty messages end with " at line L, column C:" and a code frame; we print our own location. */
function stripPosition(message: string): string {
  return message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
}

export interface FoundNode {
  /** The node at the deepest resolved step (undefined at a null value). */
  node: Node | undefined;
  /** The key node when the deepest step was a mapping key. */
  key: Node | undefined;
  /** How many path segments resolved. */
  depth: number;
}

/** Walk `path` as far as it goes; missing keys stop the walk at their parent. */
export function findNode(doc: Document, path: KeyPath): FoundNode {
  let node: Node | undefined = (doc.contents ?? undefined) as Node | undefined;
  let key: Node | undefined;
  let depth = 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      key = pair.key as Node;
      node = (pair.value ?? undefined) as Node | undefined;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) break;
      key = undefined;
      node = item as Node;
    } else {
      break;
    }
    depth++;
  }
  return { node, key, depth };
}

/** Line and column of the key (or sequence item) at `path`, or of its deepest existing ancestor. */
export function locate(source: Pick<YamlSource, 'doc' | 'lineCounter'>, path: KeyPath): Position {
  const { node, key } = findNode(source.doc, path);
  const offset = key?.range?.[0] ?? node?.range?.[0] ?? firstContentOffset(source.doc);
  return source.lineCounter.linePos(offset);
}

function firstContentOffset(doc: Document): number {
  return (doc.contents as Node | null)?.range?.[0] ?? 0;
}

/** The key path of the mapping key that starts at `offset`, if any. */
export function findPathAtOffset(doc: Document, offset: number): (string | number)[] | undefined {
  const walk = (node: unknown, path: (string | number)[]): (string | number)[] | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as Node | null;
        const name = isScalar(keyNode) ? String(keyNode.value) : '?';
        if (keyNode?.range?.[0] === offset) return [...path, name];
        const found = walk(pair.value, [...path, name]);
        if (found) return found;
      }
    } else if (isSeq(node)) {
      for (const [index, item] of node.items.entries()) {
        const found = walk(item, [...path, index]);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(doc.contents, []);
}
