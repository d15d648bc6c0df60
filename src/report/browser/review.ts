/**
 * Trends, the evaluation review (checks that never discriminate, the grader's critique),
 * the best prompt with its copy button, and the footer.
 */
import type { TrendView } from '../report-data.js';
import { el, section, svg } from './dom.js';
import { isNum, when } from './format.js';
import { data, LIVE } from './page-data.js';

function renderTrendTable(title: string, trends: TrendView[], format: (v: number) => string): HTMLElement {
  const box = el('div', null, el('h3', null, title));
  if (!trends.length) {
    box.appendChild(el('p', 'empty', 'Nothing recorded.'));
    return box;
  }
  const body = el('tbody');
  for (const t of trends) {
    const present = t.values.filter(isNum);
    const first = present[0];
    const last = present[present.length - 1];
    const spark = svg('svg', {
      width: t.spark.width,
      height: t.spark.height,
      class: 'spark',
      viewBox: '0 0 ' + t.spark.width + ' ' + t.spark.height,
    });
    if (t.spark.path) spark.appendChild(svg('path', { d: t.spark.path }));
    if (t.spark.last) spark.appendChild(svg('circle', { cx: t.spark.last.x, cy: t.spark.last.y, r: 2.5 }));
    body.appendChild(
      el('tr', null, [
        el('td', 'mono', t.key),
        el('td', null, spark),
        el('td', 'r', first !== undefined && last !== undefined ? format(first) + ' → ' + format(last) : '–'),
      ]),
    );
  }
  box.appendChild(
    el(
      'div',
      'tablewrap',
      el('table', null, [
        el(
          'thead',
          null,
          el('tr', null, [
            el('th', null, 'Name'),
            el('th', null, 'Across iterations'),
            el('th', 'r', 'First → last'),
          ]),
        ),
        body,
      ]),
    ),
  );
  return box;
}

export function renderTrends(): HTMLElement {
  const box = section('Trends', 'trends');
  box.appendChild(
    el('div', 'two', [
      renderTrendTable('Judge criteria (1–5)', data.trends.criteria, (v) => v.toFixed(2)),
      renderTrendTable('Checks (pass rate)', data.trends.checks, (v) => Math.round(v * 100) + '%'),
    ]),
  );
  return box;
}

export function renderReview(): HTMLElement {
  const box = section('Can the evaluation be trusted?', 'review');
  box.appendChild(el('h3', null, 'Checks that never discriminate'));
  if (!data.flatChecks.length)
    box.appendChild(
      el(
        'p',
        'note',
        'Every check told candidates apart at least once (or too few candidates were checked to tell).',
      ),
    );
  else
    box.appendChild(
      el(
        'ul',
        null,
        data.flatChecks.map((f) => {
          const what =
            f.verdict === 'pass'
              ? 'passed on every output of all ' +
                f.candidates +
                ' candidates: it adds the same amount to every score and cannot steer the search.'
              : 'failed on every output of all ' +
                f.candidates +
                ' candidates: no prompt satisfied it; check that it asks for the right thing.';
          return el('li', null, [el('span', 'mono', f.name), ' ', el('span', 'tag', f.type), ' ' + what]);
        }),
      ),
    );
  box.appendChild(el('h3', null, "The grader's critique of the expectations"));
  const fb = data.feedback;
  if (!fb.suggestions.length && !fb.overall.length)
    box.appendChild(
      el('p', 'note', 'The grader raised no concern about the expectations (or no case has expectations).'),
    );
  if (fb.suggestions.length)
    box.appendChild(
      el(
        'ul',
        null,
        fb.suggestions.map((s) =>
          el('li', null, [
            s.assertion ? el('strong', null, s.assertion) : null,
            s.assertion ? ' — ' : '',
            s.reason,
            el('div', 'note', 'said ' + s.count + '× · ' + s.where.join('; ')),
          ]),
        ),
      ),
    );
  if (fb.overall.length)
    box.appendChild(
      el(
        'ul',
        null,
        fb.overall.map((r) =>
          el('li', null, [r.text, el('div', 'note', 'said ' + r.count + '× · ' + r.where.join('; '))]),
        ),
      ),
    );
  return box;
}

/** The clipboard API where the page may use it (http, a secure context); else a selected textarea. */
function copyText(text: string, button: HTMLButtonElement): void {
  function done(ok: boolean): void {
    button.textContent = ok ? 'Copied' : 'Select the text to copy';
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 1600);
  }
  function fallback(): void {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    document.body.removeChild(area);
    done(ok);
  }
  // Older browsers and some file:// pages have no clipboard object at all, whatever the types say.
  const clipboard: Clipboard | undefined = navigator.clipboard;
  if (clipboard?.writeText) clipboard.writeText(text).then(() => done(true), fallback);
  else fallback();
}

export function renderBest(): HTMLElement {
  const box = el('section', 'panel');
  box.id = 'best';
  const best = data.bestPrompt;
  const title =
    'Best prompt' + (best && best.iteration !== null ? ' (iteration ' + best.iteration + ')' : '');
  const button = el('button', 'copy', 'Copy');
  button.type = 'button';
  box.appendChild(el('div', 'besthead', [el('h2', null, title), best ? button : null]));
  if (!best) {
    box.appendChild(el('p', 'empty', 'No prompt has been scored yet.'));
    return box;
  }
  const pre = el('pre', 'bestprompt', best.text);
  button.addEventListener('click', () => copyText(best.text, button));
  box.appendChild(pre);
  return box;
}

export function renderFooter(): HTMLElement {
  const foot = el('footer');
  if (data.warnings.length) {
    foot.appendChild(el('div', null, 'Warnings'));
    foot.appendChild(
      el(
        'ul',
        null,
        data.warnings.map((w) =>
          el('li', null, (w.iteration !== null ? 'iteration ' + w.iteration + ': ' : '') + w.message),
        ),
      ),
    );
  }
  if (data.problems.length) {
    foot.appendChild(el('div', null, 'Problems reading the run folder'));
    foot.appendChild(
      el(
        'ul',
        null,
        data.problems.map((p) => el('li', null, p)),
      ),
    );
  }
  foot.appendChild(
    el(
      'p',
      null,
      'Generated ' +
        when(data.generatedAt) +
        ' by autoresearch ' +
        data.toolVersion +
        '. This page is self-contained and makes no network requests' +
        (LIVE ? ' except to the local server that refreshes it.' : '.'),
    ),
  );
  return foot;
}
