/**
 * The report page's script, bundled into one inline script of report.html at build time
 * (scripts/build-report-page.mjs). It reads the JSON block and builds the page with DOM calls
 * only: every piece of run data enters through text nodes or `textContent`, never as markup,
 * so an output holding `</script>` or `<img onerror>` is shown as the text it is. Geometry
 * comes precomputed (chart-geometry.ts); the script only places shapes.
 */
import { renderBeside } from './beside.js';
import { add } from './dom.js';
import { openIteration, renderTable } from './iterations.js';
import { renderLedger } from './ledger.js';
import { renderChart, renderHeader } from './overview.js';
import { data, LIVE } from './page-data.js';
import { renderPool } from './pool.js';
import { renderBest, renderFooter, renderReview, renderTrends } from './review.js';

const app = document.getElementById('app');
if (app) {
  add(app, [
    renderHeader(),
    renderBeside(),
    renderChart(),
    renderPool(),
    renderTable(),
    renderLedger(),
    renderTrends(),
    renderReview(),
    renderBest(),
    renderFooter(),
  ]);
}
const match = /^#iteration-(\d+)$/.exec(location.hash);
if (match) openIteration(Number(match[1]), true);

// The served page follows the run: it reloads when the journal has moved on.
if (LIVE) {
  setInterval(() => {
    fetch('status.json', { cache: 'no-store' })
      .then((r) => r.json())
      .then((s: { stamp?: string } | null) => {
        if (s?.stamp && s.stamp !== data.stamp) location.reload();
      })
      .catch(() => {});
  }, 2000);
}
