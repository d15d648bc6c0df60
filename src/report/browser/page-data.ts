/**
 * The report model, read from the inert JSON block the renderer embeds (render-html.ts), and
 * the lookups every part of the page shares.
 */
import type { IterationStatus } from '../../run/events.js';
import { ITERATION_STATUSES } from '../../run/vocabulary.js';
import type { IterationView, ReportData } from '../report-data.js';

export const data: ReportData = JSON.parse(document.getElementById('report-data')?.textContent ?? '');

/** Served by `report --serve` (http), not opened from a file: the page may poll for a newer run. */
export const LIVE = /^https?:$/.test(location.protocol);

/** Legend and count order: the journal's. */
export const STATUS_ORDER: readonly IterationStatus[] = ITERATION_STATUSES;

export const byIteration = new Map<number, IterationView>(data.iterations.map((it) => [it.iteration, it]));

export const bestIteration: number | null = data.overview.best ? data.overview.best.iteration : null;
