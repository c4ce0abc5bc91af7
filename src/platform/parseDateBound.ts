const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an analytics date bound to epoch ms (UTC): `YYYY-MM-DD` means UTC midnight, an
 * ISO 8601 date-time with `Z` or an offset is converted to UTC, and one without an offset is
 * UTC already (the hosted API's reading; the server's own zone must not change an answer). Returns null for anything
 * else, including dates that don't exist (`2026-02-30`) — `Date.parse` would roll those over.
 */
export function parseDateBound(text: string): number | null {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return utc(+dateOnly[1], +dateOnly[2], +dateOnly[3], 0, 0, 0, 0, 0);
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = +digits.slice(0, 2);
    const om = +digits.slice(2);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = frac ? Math.floor(+`0.${frac}` * 1000) : 0;
  return utc(+y, +mo, +d, +h, +mi, s ? +s : 0, ms, offsetMinutes);
}

function utc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
  offsetMinutes: number,
): number | null {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
}
