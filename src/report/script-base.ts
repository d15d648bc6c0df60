/**
 * The page script's foundation: the data, and helpers that build DOM nodes from text only
 * (`el`, `svg`, `add` turn every string into a text node) plus number and date formatting.
 */
export const SCRIPT_BASE = `  var data = JSON.parse(document.getElementById('report-data').textContent);
  var app = document.getElementById('app');
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var LIVE = /^https?:$/.test(location.protocol);
  var STATUS_ORDER = ['baseline', 'keep', 'discard', 'gate_fail', 'holdout_fail', 'duplicate', 'error', 'interrupted'];
  var byIteration = {};
  data.iterations.forEach(function (it) { byIteration[it.iteration] = it; });
  var bestIteration = data.overview.best ? data.overview.best.iteration : null;

  function add(node, children) {
    if (children === null || children === undefined || children === false) return node;
    if (!Array.isArray(children)) children = [children];
    children.forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    });
    return node;
  }
  function el(tag, cls, children) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    return add(node, children);
  }
  function svg(tag, attrs, children) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, String(attrs[key])); });
    return add(node, children);
  }
  function statusLabel(status) { return String(status).replace(/_/g, ' '); }
  function statusColor(status) { return 'var(--s-' + status + ')'; }
  function pill(status) {
    var node = el('span', 'pill', statusLabel(status));
    node.style.background = statusColor(status);
    return node;
  }
  function isNum(v) { return typeof v === 'number' && isFinite(v); }
  function score(v) { return isNum(v) ? v.toFixed(3) : '–'; }
  function signed(v) {
    if (!isNum(v)) return '–';
    var r = Math.round(v * 1000) / 1000;
    return (r > 0 ? '+' : r < 0 ? '−' : '±') + Math.abs(r).toFixed(3);
  }
  function usd(v) { return v > 0 && v < 0.01 ? '<$0.01' : '$' + v.toFixed(2); }
  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function duration(seconds) {
    var s = Math.round(seconds);
    if (s < 60) return s + 's';
    var m = Math.floor(s / 60);
    if (m < 60) return m + 'm ' + pad(s % 60) + 's';
    return Math.floor(m / 60) + 'h ' + pad(m % 60) + 'm';
  }
  function when(iso) {
    if (!iso) return '';
    var d = new Date(iso);
    if (isNaN(d.getTime())) return '';
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' + pad(d.getHours()) + ':' + pad(d.getMinutes());
  }
  function span(from, to) {
    var a = when(from);
    var b = when(to);
    if (!a) return '';
    if (!b || a === b) return 'started ' + a;
    return a + ' → ' + (a.slice(0, 10) === b.slice(0, 10) ? b.slice(11) : b);
  }
  function deltaNode(v) {
    var node = el('span', 'num', signed(v));
    if (isNum(v) && Math.round(v * 1000) !== 0) node.className = 'num ' + (v > 0 ? 'up' : 'down');
    return node;
  }
  function section(title, id) {
    var node = el('section', 'panel');
    if (id) node.id = id;
    if (title) node.appendChild(el('h2', null, title));
    return node;
  }

`;
