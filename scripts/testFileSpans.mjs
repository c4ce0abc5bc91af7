// How long each test file ran in a whole `npm test`, read from ava's reporter lines as they
// arrive, so that every run ends with its longest files named (scripts/ava-suite.config.mjs
// starts those first; its list is refreshed from this table).

const DURATION = /\((?:(\d+)m )?(\d+(?:\.\d+)?)(ms|s)\)$/;

/**
 * Collects, per test file, the earliest start and the latest end of its tests. ava prints a
 * test when it ends, with its duration when that is long enough to show: the start is the
 * arrival time minus that duration, so a file's span covers its tests, not its worker's start.
 */
export function createTestFileSpans() {
  const spans = new Map();
  return {
    /** Takes one reporter line (a ✔/✘ test line; others are ignored) that arrived at `nowMs`. */
    record(line, nowMs) {
      const test = /^\s*[✔✘]\s+(?:\[[a-z]+\]:?\s+)?(.*)$/.exec(line);
      if (!test) return;
      const parts = test[1].split(' › ');
      const at = parts.findIndex((part) => /\.(?:unit|int|browser)$/.test(part));
      if (at < 0) return;
      const file = parts.slice(0, at + 1).join('/');
      const d = DURATION.exec(parts.at(-1) ?? '');
      const ms = d ? (Number(d[1] ?? 0) * 60 + Number(d[2])) * (d[3] === 'ms' ? 1 : 1000) : 0;
      const span = spans.get(file) ?? { start: Number.POSITIVE_INFINITY, end: 0 };
      span.start = Math.min(span.start, nowMs - ms);
      span.end = Math.max(span.end, nowMs);
      spans.set(file, span);
    },
    /** The `count` longest files as `[file, seconds]`, longest first. */
    longest(count) {
      return [...spans]
        .map(([file, { start, end }]) => [file, (end - start) / 1000])
        .sort((a, b) => b[1] - a[1])
        .slice(0, count);
    },
  };
}
