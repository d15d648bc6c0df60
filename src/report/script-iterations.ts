/**
 * The page script: the iteration table and opening or closing a row (the hash keeps the
 * open iteration across reloads of the served page).
 */
export const SCRIPT_ITERATIONS = `  function hasSignal(key) {
    return data.iterations.some(function (it) { return isNum(it.signals[key]); });
  }
  function renderTable() {
    var box = section('Iterations', 'iterations');
    box.appendChild(el('p', 'note', 'Click a row for its hypothesis, prompt diff, outputs, checks, judge scores and grader verdicts.'));
    var signals = ['checks', 'judge', 'expectations'].filter(hasSignal);
    var head = ['', '#', 'Status', 'Train', 'Holdout', 'Δ'].concat(signals.map(function (s) { return s === 'expectations' ? 'Expect.' : s; }), ['Cost', 'Time', 'Commit', 'Hypothesis']);
    var numeric = { '#': 1, Train: 1, Holdout: 1, 'Δ': 1, checks: 1, judge: 1, 'Expect.': 1, Cost: 1, Time: 1 };
    var table = el('table', 'iter');
    table.appendChild(el('thead', null, el('tr', null, head.map(function (h) { return el('th', numeric[h] ? 'r' : null, h); }))));
    var body = el('tbody');
    data.iterations.forEach(function (it) {
      var row = el('tr', 'row' + (it.iteration === bestIteration ? ' incumbent' : ''));
      row.id = 'iteration-' + it.iteration;
      row.setAttribute('data-iteration', String(it.iteration));
      row.tabIndex = 0;
      var cells = [
        el('td', 'twisty', '▸'),
        el('td', 'r it', (it.iteration === bestIteration ? '★ ' : '') + it.iteration),
        el('td', null, pill(it.status)),
        el('td', 'r', score(it.train)),
        el('td', 'r', score(it.holdout)),
        el('td', 'r', deltaNode(it.delta))
      ];
      signals.forEach(function (s) { cells.push(el('td', 'r', score(it.signals[s]))); });
      var hypothesis = it.hypothesis || (it.errorKind ? it.errorKind + (it.message ? ': ' + it.message : '') : it.message || (it.status === 'baseline' ? 'the starting prompt' : ''));
      cells.push(el('td', 'r', usd(it.costUsd)), el('td', 'r', duration(it.seconds)),
        el('td', 'mono', it.commit ? it.commit.slice(0, 7) : ''), el('td', 'hyp', hypothesis));
      cells[cells.length - 1].title = hypothesis;
      add(row, cells);
      row.addEventListener('click', function () { toggleIteration(it.iteration); });
      row.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); toggleIteration(it.iteration); }
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    box.appendChild(el('div', 'tablewrap', table));
    return box;
  }

  function toggleIteration(n) {
    var row = document.getElementById('iteration-' + n);
    if (row && row.classList.contains('open')) closeIteration(n);
    else openIteration(n, false);
  }
  function closeIteration(n) {
    var row = document.getElementById('iteration-' + n);
    var detail = document.getElementById('detail-' + n);
    if (detail) detail.parentNode.removeChild(detail);
    if (row) { row.classList.remove('open'); row.firstChild.textContent = '▸'; }
  }
  function openIteration(n, scroll) {
    var row = document.getElementById('iteration-' + n);
    var it = byIteration[n];
    if (!row || !it) return;
    if (!row.classList.contains('open')) {
      var detail = el('tr', 'detail');
      detail.id = 'detail-' + n;
      var cell = el('td', null, renderDetail(it));
      cell.colSpan = row.children.length;
      detail.appendChild(cell);
      row.parentNode.insertBefore(detail, row.nextSibling);
      row.classList.add('open');
      row.firstChild.textContent = '▾';
    }
    try { history.replaceState(null, '', '#iteration-' + n); } catch (e) { /* file:// may refuse */ }
    if (scroll) row.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

`;
