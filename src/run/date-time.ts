/**
 * RFC 3339 date-times as the run records write them (`Date.toISOString()`, or with an offset):
 * seconds required, a zone required (Z or ±hh:mm), calendar days checked, leap years included.
 * The same rule as zod's `z.iso.datetime({ offset: true })`, for readers that do not load zod.
 */
const LEAP_DAY = '(?:\\d\\d(?:[2468][048]|[13579][26]|0[48])|(?:[02468][048]|[13579][26])00)-02-29';
const OTHER_DAY =
  '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';
const DATE_TIME = new RegExp(`^(?:${LEAP_DAY}|${OTHER_DAY})T${TIME}${ZONE}$`);

export function isDateTime(value: unknown): value is string {
  return typeof value === 'string' && DATE_TIME.test(value);
}
