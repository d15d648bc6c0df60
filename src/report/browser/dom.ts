/**
 * Helpers that build DOM nodes from text only: `el`, `svg` and `add` turn every string into
 * a text node, so run data can never become markup.
 */
import { isNum, signed, statusLabel } from './format.js';

export type Child = Node | string | number | null | undefined | false;

const SVG_NS = 'http://www.w3.org/2000/svg';

export function add<T extends Node>(node: T, children?: Child | Child[]): T {
  if (children === null || children === undefined || children === false) return node;
  const list = Array.isArray(children) ? children : [children];
  for (const child of list) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string | null,
  children?: Child | Child[],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  return add(node, children);
}

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  children?: Child | Child[],
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const key of Object.keys(attrs)) node.setAttribute(key, String(attrs[key]));
  return add(node, children);
}

/** The colour of a status, shared by the chart, the table and the legend (see report.css). */
export function statusColor(status: string): string {
  return 'var(--s-' + status + ')';
}

export function pill(status: string): HTMLSpanElement {
  const node = el('span', 'pill', statusLabel(status));
  node.style.background = statusColor(status);
  return node;
}

export function deltaNode(v: number | null): HTMLSpanElement {
  const node = el('span', 'num', signed(v));
  if (isNum(v) && Math.round(v * 1000) !== 0) node.className = 'num ' + (v > 0 ? 'up' : 'down');
  return node;
}

export function section(title: string | null, id?: string): HTMLElement {
  const node = el('section', 'panel');
  if (id) node.id = id;
  if (title) node.appendChild(el('h2', null, title));
  return node;
}
