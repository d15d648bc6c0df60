/**
 * What a YAML document becomes once every alias is expanded, measured on its nodes before it is
 * turned into data (docs/experiment.md, "Limits"): an alias inside the node it names (a cycle),
 * nesting deeper than MAX_YAML_DEPTH, or more than MAX_YAML_EXPANDED_SIZE characters in all.
 * Repeating an anchored node is fine — PyYAML writes one alias per repeated object — so the bound
 * is on the expanded size (what a "billion laughs" blows up), not on how many aliases there are.
 */
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { KeyPath } from './key-path.js';

/** Levels of mappings and lists, counted through aliases. */
export const MAX_YAML_DEPTH = 100;
/** Characters of the document with every alias written out in full (64 MiB). */
export const MAX_YAML_EXPANDED_SIZE = 64 * 1024 * 1024;

export type ExpansionBreach =
  | { kind: 'cycle'; path: KeyPath; offset: number; anchor: string }
  | { kind: 'depth'; path: KeyPath; offset: number }
  | { kind: 'size'; size: number };

export function findExpansionBreach(doc: Document): ExpansionBreach | undefined {
  const anchors = new Map<string, Node>();
  const sizes = new Map<Node, { size: number; height: number }>();
  const open = new Set<Node>();
  let breach: ExpansionBreach | undefined;

  // Returns the node's expanded size and height; recursion stops at the depth limit.
  const walk = (node: unknown, path: KeyPath, depth: number): { size: number; height: number } => {
    if (breach !== undefined || node === null || typeof node !== 'object') return { size: 1, height: 0 };
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const offset = node.range?.[0] ?? 0;
      if (target === undefined) return { size: 1, height: 0 };
      if (open.has(target)) {
        breach = { kind: 'cycle', path, offset, anchor: node.source };
        return { size: 1, height: 0 };
      }
      const measured = sizes.get(target) ?? { size: 1, height: 0 };
      if (depth + measured.height > MAX_YAML_DEPTH) breach = { kind: 'depth', path, offset };
      return measured;
    }
    const self = node as Node;
    if (self.anchor) anchors.set(self.anchor, self);
    if (isScalar(self)) {
      const span = self.range ? self.range[1] - self.range[0] : String(self.value).length;
      const measured = { size: Math.max(span, 1), height: 0 };
      sizes.set(self, measured);
      return measured;
    }
    if (!isMap(self) && !isSeq(self)) return { size: 1, height: 0 };
    if (depth >= MAX_YAML_DEPTH) {
      breach = { kind: 'depth', path, offset: self.range?.[0] ?? 0 };
      return { size: 1, height: 1 };
    }
    open.add(self);
    let size = 2;
    let height = 0;
    const add = (child: { size: number; height: number }) => {
      size += child.size + 1;
      height = Math.max(height, child.height);
    };
    for (const [index, item] of (self.items as unknown[]).entries()) {
      if (isPair(item)) {
        const name = isScalar(item.key) ? String(item.key.value) : '?';
        add(walk(item.key, [...path, name], depth + 1));
        add(walk(item.value, [...path, name], depth + 1));
      } else {
        add(walk(item, [...path, index], depth + 1));
      }
      if (breach !== undefined) break;
    }
    open.delete(self);
    const measured = { size, height: height + 1 };
    sizes.set(self, measured);
    return measured;
  };

  const root = walk(doc.contents, [], 0);
  if (breach !== undefined) return breach;
  return root.size > MAX_YAML_EXPANDED_SIZE ? { kind: 'size', size: root.size } : undefined;
}
