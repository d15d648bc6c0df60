/**
 * The page script: trends, the evaluation review (flat checks, grader critique), the best
 * prompt with its copy button, and the footer.
 */
export const SCRIPT_REVIEW = `  function renderTrendTable(title, trends, format) {
    var box = el('div', null, el('h3', null, title));
    if (!trends.length) { box.appendChild(el('p', 'empty', 'Nothing recorded.')); return box; }
    var body = el('tbody');
    trends.forEach(function (t) {
      var present = t.values.filter(isNum);
      var spark = svg('svg', { width: t.spark.width, height: t.spark.height, 'class': 'spark', viewBox: '0 0 ' + t.spark.width + ' ' + t.spark.height });
      if (t.spark.path) spark.appendChild(svg('path', { d: t.spark.path }));
      if (t.spark.last) spark.appendChild(svg('circle', { cx: t.spark.last.x, cy: t.spark.last.y, r: 2.5 }));
      body.appendChild(el('tr', null, [el('td', 'mono', t.key), el('td', null, spark),
        el('td', 'r', present.length ? format(present[0]) + ' → ' + format(present[present.length - 1]) : '–')]));
    });
    box.appendChild(el('div', 'tablewrap', el('table', null, [el('thead', null, el('tr', null, [el('th', null, 'Name'), el('th', null, 'Across iterations'), el('th', 'r', 'First → last')])), body])));
    return box;
  }
  function renderTrends() {
    var box = section('Trends', 'trends');
    box.appendChild(el('div', 'two', [
      renderTrendTable('Judge criteria (1–5)', data.trends.criteria, function (v) { return v.toFixed(2); }),
      renderTrendTable('Checks (pass rate)', data.trends.checks, function (v) { return Math.round(v * 100) + '%'; })
    ]));
    return box;
  }

  function renderReview() {
    var box = section('Can the evaluation be trusted?', 'review');
    box.appendChild(el('h3', null, 'Checks that never discriminate'));
    if (!data.flatChecks.length) box.appendChild(el('p', 'note', 'Every check told candidates apart at least once (or too few candidates were checked to tell).'));
    else box.appendChild(el('ul', null, data.flatChecks.map(function (f) {
      var what = f.verdict === 'pass'
        ? 'passed on every output of all ' + f.candidates + ' candidates: it adds the same amount to every score and cannot steer the search.'
        : 'failed on every output of all ' + f.candidates + ' candidates: no prompt satisfied it; check that it asks for the right thing.';
      return el('li', null, [el('span', 'mono', f.name), ' ', el('span', 'tag', f.type), ' ' + what]);
    })));
    box.appendChild(el('h3', null, "The grader's critique of the expectations"));
    var fb = data.feedback;
    if (!fb.suggestions.length && !fb.overall.length) box.appendChild(el('p', 'note', 'The grader raised no concern about the expectations (or no case has expectations).'));
    if (fb.suggestions.length) box.appendChild(el('ul', null, fb.suggestions.map(function (s) {
      return el('li', null, [s.assertion ? el('strong', null, s.assertion) : null, s.assertion ? ' — ' : '', s.reason,
        el('div', 'note', 'said ' + s.count + '× · ' + s.where.join('; '))]);
    })));
    if (fb.overall.length) box.appendChild(el('ul', null, fb.overall.map(function (r) {
      return el('li', null, [r.text, el('div', 'note', 'said ' + r.count + '× · ' + r.where.join('; '))]);
    })));
    return box;
  }

  function copyText(text, button) {
    function done(ok) {
      button.textContent = ok ? 'Copied' : 'Select the text to copy';
      setTimeout(function () { button.textContent = 'Copy'; }, 1600);
    }
    function fallback() {
      var area = document.createElement('textarea');
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      document.body.removeChild(area);
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    else fallback();
  }
  function renderBest() {
    var box = el('section', 'panel');
    box.id = 'best';
    var best = data.bestPrompt;
    var title = 'Best prompt' + (best && best.iteration !== null ? ' (iteration ' + best.iteration + ')' : '');
    var button = el('button', 'copy', 'Copy');
    button.type = 'button';
    box.appendChild(el('div', 'besthead', [el('h2', null, title), best ? button : null]));
    if (!best) { box.appendChild(el('p', 'empty', 'No prompt has been scored yet.')); return box; }
    var pre = el('pre', 'bestprompt', best.text);
    button.addEventListener('click', function () { copyText(best.text, button); });
    box.appendChild(pre);
    return box;
  }

  function renderFooter() {
    var foot = el('footer');
    if (data.warnings.length) {
      foot.appendChild(el('div', null, 'Warnings'));
      foot.appendChild(el('ul', null, data.warnings.map(function (w) { return el('li', null, (w.iteration !== null ? 'iteration ' + w.iteration + ': ' : '') + w.message); })));
    }
    if (data.problems.length) {
      foot.appendChild(el('div', null, 'Problems reading the run folder'));
      foot.appendChild(el('ul', null, data.problems.map(function (p) { return el('li', null, p); })));
    }
    foot.appendChild(el('p', null, 'Generated ' + when(data.generatedAt) + ' by autoresearch ' + data.toolVersion +
      '. This page is self-contained and makes no network requests' + (LIVE ? ' except to the local server that refreshes it.' : '.')));
    return foot;
  }

`;
