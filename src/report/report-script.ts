/**
 * The page's script, inlined into report.html. It reads the JSON block and builds the page
 * with DOM calls only: every piece of run data enters the page through text nodes or
 * `textContent`, never as markup, so an output holding `</script>` or `<img onerror>` is
 * shown as the text it is. Plain ES2017 so any current browser runs it from file://.
 * Geometry comes precomputed (chart-geometry.ts); the script only places shapes. It is one
 * function scope assembled from the parts below, in order.
 */
import { SCRIPT_BASE } from './script-base.js';
import { SCRIPT_DETAIL } from './script-detail.js';
import { SCRIPT_ITERATIONS } from './script-iterations.js';
import { SCRIPT_OVERVIEW } from './script-overview.js';
import { SCRIPT_REVIEW } from './script-review.js';

const SCRIPT_START = String.raw`  add(app, [renderHeader(), renderChart(), renderTable(), renderTrends(), renderReview(), renderBest(), renderFooter()]);
  var match = /^#iteration-(\d+)$/.exec(location.hash);
  if (match) openIteration(Number(match[1]), true);

  if (LIVE) {
    setInterval(function () {
      fetch('status.json', { cache: 'no-store' }).then(function (r) { return r.json(); }).then(function (s) {
        if (s && s.stamp && s.stamp !== data.stamp) location.reload();
      }).catch(function () {});
    }, 2000);
  }
`;

export const REPORT_SCRIPT = [
  "(function () {\n  'use strict';",
  SCRIPT_BASE,
  SCRIPT_OVERVIEW,
  SCRIPT_ITERATIONS,
  SCRIPT_DETAIL,
  SCRIPT_REVIEW,
  SCRIPT_START,
  '})();\n',
].join('\n');
