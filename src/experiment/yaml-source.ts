/**
 * YAML with positions. Every problem in a user's file names a line and column, so the
 * document is parsed once with a LineCounter and problems are located by walking its nodes.
 */
import { type Document, LineCounter, isMap, isPair, isScalar, isSeq, type Node, parseDocument } from 'yaml';
import type { Problem } from '../errors.js';
import { formatKeyPath, type KeyPath } from './key-path.js';

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
    try {
      data = doc.toJS({ maxAliasCount: 1000 });
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
