/**
 * The report's lineage view of a pareto run's pool (docs/design/pareto-search.md) as plain
 * geometry, so the page's script only places shapes: p0 at the root on the left, each member one
 * column right of its deepest parent, in a row under its first parent (a tree by first parents,
 * leaves one row each, a parent centred on its children); a merge's second parent joins it by a
 * second edge.
 */

export interface LineageInput {
  id: string;
  parents: readonly string[];
}

export interface LineageNode {
  id: string;
  x: number;
  y: number;
  /** Columns from the root: one more than its deepest parent. */
  depth: number;
}

export interface LineageEdge {
  from: string;
  to: string;
  /** An SVG path from the parent's right edge to the child's left edge. */
  path: string;
  /** The edge of a merge's second parent. */
  merge: boolean;
}

export interface LineageModel {
  width: number;
  height: number;
  /** The radius a node is drawn with (edges end on it). */
  radius: number;
  nodes: LineageNode[];
  edges: LineageEdge[];
}

const COLUMN = 110;
// Room for a node's marks above it and its score below it.
const ROW = 58;
const MARGIN = { left: 30, right: 40, top: 34, bottom: 34 };
const RADIUS = 11;

export function buildLineage(members: readonly LineageInput[]): LineageModel {
  const known = new Set(members.map((m) => m.id));
  const parentsOf = (m: LineageInput) => m.parents.filter((p) => known.has(p));
  const depth = new Map<string, number>();
  // Members are journaled after their parents, so one pass in pool order sees every parent first.
  for (const m of members) depth.set(m.id, Math.max(-1, ...parentsOf(m).map((p) => depth.get(p) ?? 0)) + 1);
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const m of members) {
    const first = parentsOf(m)[0];
    if (first === undefined) roots.push(m.id);
    else children.set(first, [...(children.get(first) ?? []), m.id]);
  }
  const row = new Map<string, number>();
  let next = 0;
  const place = (id: string): number => {
    const kids = children.get(id) ?? [];
    const rows = kids.map(place);
    const at = rows.length === 0 ? next++ : ((rows[0] as number) + (rows[rows.length - 1] as number)) / 2;
    row.set(id, at);
    return at;
  };
  for (const root of roots) place(root);

  const nodes: LineageNode[] = members.map((m) => ({
    id: m.id,
    depth: depth.get(m.id) ?? 0,
    x: MARGIN.left + RADIUS + (depth.get(m.id) ?? 0) * COLUMN,
    y: MARGIN.top + (row.get(m.id) ?? 0) * ROW,
  }));
  const at = new Map(nodes.map((n) => [n.id, n]));
  const edges: LineageEdge[] = [];
  for (const m of members) {
    const child = at.get(m.id) as LineageNode;
    parentsOf(m).forEach((p, index) => {
      const parent = at.get(p) as LineageNode;
      edges.push({ from: p, to: m.id, path: curve(parent, child), merge: index > 0 });
    });
  }
  const columns = Math.max(0, ...nodes.map((n) => n.depth));
  return {
    width: MARGIN.left + MARGIN.right + 2 * RADIUS + columns * COLUMN,
    height: MARGIN.top + MARGIN.bottom + Math.max(0, next - 1) * ROW,
    radius: RADIUS,
    nodes,
    edges,
  };
}

/** A smooth S from the parent's right side to the child's left side. */
function curve(from: LineageNode, to: LineageNode): string {
  const x1 = from.x + RADIUS;
  const x2 = to.x - RADIUS;
  const mid = round((x1 + x2) / 2);
  return `M${round(x1)},${round(from.y)} C${mid},${round(from.y)} ${mid},${round(to.y)} ${round(x2)},${round(to.y)}`;
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
