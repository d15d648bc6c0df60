/**
 * The page's head (status, simulated label, score cards) and the score chart, placed from
 * the precomputed geometry (chart-geometry.ts); every point opens its iteration.
 */
import type { IterationView } from '../report-data.js';
import type { RunOverview } from '../overview.js';
import { add, type Child, deltaNode, el, section, statusColor, svg } from './dom.js';
import { bounds, duration, isNum, score, signed, span, statusLabel, tally, usd } from './format.js';
import { openIteration } from './iterations.js';
import { byIteration, data, LIVE, STATUS_ORDER } from './page-data.js';

export function renderHeader(): HTMLElement {
  const o = data.overview;
  const head = el('div', 'head', [
    el('h1', null, o.experiment || o.id),
    el('span', 'runid mono', o.id),
    el('span', 'badge ' + o.status, o.status),
    o.simulated.length ? el('span', 'badge sim', 'simulated: ' + o.simulated.join(', ')) : null,
    LIVE ? el('span', 'badge live', 'live') : null,
  ]);
  let stop: string | undefined;
  const at = o.current
    ? 'iteration ' +
      o.current.iteration +
      (o.current.phase ? ', ' + o.current.phase : '') +
      (o.current.progress ? ' ' + o.current.progress.done + '/' + o.current.progress.total : '')
    : '';
  if (o.stopReason) stop = 'Stopped (' + statusLabel(o.stopReason) + '): ' + o.stopMessage;
  else if (o.status === 'crashed')
    stop =
      'No stop was recorded and no process holds the run: it crashed or was killed' +
      (at ? ' during ' + at : '') +
      '. Resume it to continue.';
  else if (at) stop = 'In progress: ' + at;
  const wrap = el('header', null, [head, stop ? el('div', 'stopline', stop) : null, fromLine(o)]);
  if (o.simulated.length) {
    wrap.appendChild(
      el('p', 'stopline', 'Simulated models produced these results; they say nothing about real models.'),
    );
  }
  wrap.appendChild(renderCards(o));
  return wrap;
}

/** `run --from`: where the baseline's prompt came from; its score there is not this run's baseline. */
function fromLine(o: RunOverview): HTMLElement | null {
  const from = o.from;
  if (!from) return null;
  const what =
    from.take === 'member' ? 'pool member ' + from.member : from.take === 'pool' ? 'the pool' : 'the best';
  const seeds = from.seeds ?? [];
  return el('p', 'stopline from', [
    'Started from ' + what + ' of run ',
    el('span', 'mono', from.runId),
    ' (iteration ' +
      from.iteration +
      (isNum(from.train) ? ', train ' + score(from.train) + ' there' : '') +
      ')',
    from.commit ? ', commit ' : '',
    from.commit ? el('span', 'mono', from.commit.slice(0, 12)) : '',
    from.take === 'pool'
      ? seeds.length === 0
        ? '; its best, with no other live member, evaluated afresh as this run\u2019s baseline.'
        : '; its best evaluated afresh as this run\u2019s baseline, and ' +
          seeds.map((s) => s.member).join(', ') +
          ' beside it as seeds of this run\u2019s pool.'
      : '; evaluated afresh as this run\u2019s baseline.',
  ]);
}

function scoreCard(label: string, split: 'train' | 'holdout', o: RunOverview): HTMLElement {
  const source = o.final
    ? { baseline: o.final.baseline, best: o.final.best }
    : { baseline: o.baseline, best: o.best };
  const from = source.baseline ? source.baseline[split] : null;
  const to = source.best ? source.best[split] : null;
  if (!isNum(from) && !isNum(to)) {
    return card(label, '–', split === 'holdout' ? 'no holdout cases' : 'no score yet');
  }
  const subs: Child[] = [
    el('span', null, [
      deltaNode(isNum(from) && isNum(to) ? to - from : null),
      ' · ' + (o.final ? 'fresh final evaluation' : 'as decided during the run'),
    ]),
  ];
  if (o.final && o.best && o.baseline) {
    subs.push(el('div', null, 'during the run: ' + score(o.baseline[split]) + ' → ' + score(o.best[split])));
  }
  return card(label, score(from) + ' → ' + score(to), subs);
}

/** The sealed test split's card, first when the final evaluation scored test cases: no decision saw them. */
function testCard(o: RunOverview): HTMLElement | null {
  if (!o.final || (o.final.baseline.test === undefined && o.final.best.test === undefined)) return null;
  const from = o.final.baseline.test;
  const to = o.final.best.test;
  return card('Test score (sealed)', score(from ?? null) + ' → ' + score(to ?? null), [
    el('span', null, [
      deltaNode(isNum(from) && isNum(to) ? to - from : null),
      ' · scored only by the final evaluation',
    ]),
  ]);
}

function card(label: string, value: string, sub: Child | Child[], cls?: string): HTMLElement {
  return el('div', 'card' + (cls ? ' ' + cls : ''), [
    el('div', 'label', label),
    el('div', 'value', value),
    sub ? el('div', 'sub', sub) : null,
  ]);
}

function renderCards(o: RunOverview): HTMLElement {
  const counts = STATUS_ORDER.filter((s) => o.counts[s] > 0 && s !== 'baseline')
    .map((s) => o.counts[s] + ' ' + statusLabel(s))
    .join(' · ');
  const roles = (Object.keys(o.costByRole) as (keyof RunOverview['costByRole'])[])
    .filter((r) => o.costByRole[r].calls > 0 || o.costByRole[r].usd > 0)
    .map((r) => r + ' ' + usd(o.costByRole[r].usd))
    .join(' · ');
  const margin = o.noiseMargin;
  return el('div', 'cards', [
    testCard(o),
    scoreCard('Train score', 'train', o),
    scoreCard('Holdout score', 'holdout', o),
    card(
      'Iterations',
      String(o.iterations),
      (counts || 'none finished yet') +
        (o.callsSaved > 0 ? ' · screening saved ' + o.callsSaved + ' calls' : ''),
    ),
    o.merges
      ? card(
          'Merges',
          String(o.merges.attempted),
          o.merges.attempted === 0
            ? 'none attempted yet'
            : o.merges.pooled + ' pooled · ' + o.merges.best + ' became the best',
        )
      : null,
    card('Cost', usd(o.costUsd), o.calls + ' calls' + (roles ? ' · ' + roles : '')),
    card('Active time', duration(o.activeSeconds), span(o.startedAt, o.endedAt)),
    // Margin acceptance (version 1) journals its margin with the baseline; paired decisions measure
    // the noise in each one's interval, so a run past its baseline without a margin has none to show.
    margin || !o.baseline
      ? card(
          'Noise margin',
          margin ? '±' + margin.train.toFixed(3) : '–',
          margin
            ? isNum(margin.holdout)
              ? 'holdout ±' + margin.holdout.toFixed(3)
              : 'train only'
            : 'not measured yet',
        )
      : null,
    judgeCard(o),
    card(
      'Branch',
      o.branch || 'none',
      o.branch
        ? o.merges
          ? 'one commit per new best'
          : 'one commit per keep'
        : 'commits are off (not a git repository)',
      'wide',
    ),
  ]);
}

/**
 * Drift anchors (docs/design/judge-reliability.md): the last drift check, the judge's noise under it; none
 * when no anchor was read.
 */
function judgeCard(o: RunOverview): HTMLElement | null {
  const { noise, checks } = o.judgeAnchors;
  if (!noise && checks.length === 0) return null;
  const last = checks[checks.length - 1];
  const beyond = checks.filter((c) => c.beyondNoise).map((c) => c.iteration);
  const subs: string[] = [];
  if (last)
    subs.push(
      (isNum(last.lo) && isNum(last.hi) ? '[' + signed(last.lo) + ', ' + signed(last.hi) + '] ' : '') +
        'at iteration ' +
        last.iteration,
    );
  if (noise)
    subs.push(
      'noise ±' +
        noise.noise.toFixed(3) +
        ' per output' +
        (isNum(noise.decisionNoise) ? ', ±' + noise.decisionNoise.toFixed(3) + ' in a decision' : ''),
    );
  if (beyond.length) subs.push('beyond noise at ' + beyond.join(', '));
  return card(
    'Judge drift',
    last ? signed(last.mean) : 'no check yet',
    subs.join(' · '),
    beyond.length ? 'warn' : undefined,
  );
}

function pointTitle(it: IterationView): string {
  const parts = ['Iteration ' + it.iteration, statusLabel(it.status)];
  if (isNum(it.train)) parts.push('train ' + score(it.train));
  if (isNum(it.holdout)) parts.push('holdout ' + score(it.holdout));
  if (isNum(it.delta)) parts.push('Δ ' + signed(it.delta) + (it.paired ? ' ' + bounds(it.paired.train) : ''));
  if (it.paired) parts.push(tally(it.paired));
  const text = parts.join(' · ');
  return it.hypothesis ? text + '\n' + it.hypothesis : text;
}

export function renderChart(): HTMLElement {
  const c = data.chart;
  const box = section('Scores', 'scores');
  box.appendChild(
    el(
      'p',
      'note',
      'Train score of each iteration (its decided candidate). Hover a point for details; click it to open the iteration.' +
        (c.intervals.length
          ? data.pool
            ? ' A whisker is a paired decision’s interval of the train mean difference against the parent member, drawn from that member’s score: wholly above it is a clear gain over the parent.'
            : ' A whisker is a paired decision’s interval of the train mean difference, drawn from the incumbent’s score it was compared with: wholly above the best-so-far line is a clear gain.'
          : ''),
    ),
  );
  if (!data.iterations.length) {
    box.appendChild(el('p', 'empty', 'No iteration has finished yet.'));
    return box;
  }
  const chart = svg('svg', {
    viewBox: '0 0 ' + c.width + ' ' + c.height,
    class: 'chart',
    role: 'img',
    'aria-label': 'Train score per iteration',
  });
  for (const t of c.yTicks) {
    chart.appendChild(svg('line', { x1: c.plot.left, x2: c.plot.right, y1: t.y, y2: t.y, class: 'grid' }));
    chart.appendChild(svg('text', { x: c.plot.left - 8, y: t.y + 4, 'text-anchor': 'end' }, t.label));
  }
  chart.appendChild(
    svg('line', { x1: c.plot.left, x2: c.plot.right, y1: c.plot.bottom, y2: c.plot.bottom, class: 'axis' }),
  );
  for (const t of c.xTicks) {
    chart.appendChild(svg('text', { x: t.x, y: c.plot.bottom + 18, 'text-anchor': 'middle' }, t.label));
  }
  if (c.bandPath) chart.appendChild(svg('path', { d: c.bandPath, class: 'band' }));
  if (c.holdoutPath) chart.appendChild(svg('path', { d: c.holdoutPath, class: 'holdoutline' }));
  if (c.bestPath) chart.appendChild(svg('path', { d: c.bestPath, class: 'bestline' }));
  for (const ci of c.intervals) {
    const it = byIteration.get(ci.iteration);
    const whisker = svg('g', { class: 'ci ' + ci.side, 'data-iteration': ci.iteration }, [
      svg('line', { x1: ci.x, x2: ci.x, y1: ci.top, y2: ci.bottom }),
      svg('line', { x1: ci.x - 4, x2: ci.x + 4, y1: ci.top, y2: ci.top }),
      svg('line', { x1: ci.x - 4, x2: ci.x + 4, y1: ci.bottom, y2: ci.bottom }),
      svg('line', { x1: ci.x - 8, x2: ci.x + 8, y1: ci.mid, y2: ci.mid, class: 'mid' }),
      it ? svg('title', {}, pointTitle(it)) : null,
    ]);
    whisker.addEventListener('click', () => openIteration(ci.iteration, true));
    chart.appendChild(whisker);
  }
  for (const p of c.points) {
    const it = byIteration.get(p.iteration);
    const dot = svg(
      'circle',
      {
        cx: p.x,
        cy: p.y,
        r: p.scored ? 5.5 : 4.5,
        class: 'pt' + (p.scored ? '' : ' unscored'),
        'data-iteration': p.iteration,
      },
      it ? [svg('title', {}, pointTitle(it))] : null,
    );
    if (p.scored) dot.style.fill = statusColor(p.status);
    else dot.style.stroke = statusColor(p.status);
    dot.addEventListener('click', () => openIteration(p.iteration, true));
    chart.appendChild(dot);
  }
  box.appendChild(chart);
  const present = STATUS_ORDER.filter((s) => data.overview.counts[s] > 0);
  const legend = el(
    'div',
    'legend',
    present.map((s) => {
      const sw = el('i', 'sw');
      sw.style.background = statusColor(s);
      return el('span', null, [sw, statusLabel(s)]);
    }),
  );
  add(legend, [
    el('span', null, [el('i', 'sw line'), 'best so far (train)']),
    c.holdoutPath ? el('span', null, [el('i', 'sw dash'), 'best so far (holdout)']) : null,
    c.bandPath ? el('span', null, [el('i', 'sw bandsw'), 'noise margin']) : null,
    c.intervals.length
      ? el('span', null, [el('i', 'sw ciw'), 'interval of the paired mean difference (train)'])
      : null,
    data.iterations.some((it) => !isNum(it.train))
      ? el('span', null, 'hollow: no score (error, duplicate, interrupted, screened out)')
      : null,
  ]);
  box.appendChild(legend);
  return box;
}
