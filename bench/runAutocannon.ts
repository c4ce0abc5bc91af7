import autocannon from 'autocannon';

/** One autocannon run's figures. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Requests answered, whatever their status (to divide a server's CPU time by). */
  answered: number;
}

/**
 * Runs autocannon against a 127.0.0.1 URL for a bounded time. `rate` fixes the offered load
 * (requests/s across all connections); without it the run measures the maximum. `until` stops the
 * run early when it settles.
 */
export async function runAutocannon(options: {
  url: string;
  seconds: number;
  connections?: number;
  rate?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  until?: Promise<unknown>;
}): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(options.url)) throw new Error('load tests only target 127.0.0.1');
  const run = autocannon({
    url: options.url,
    duration: options.seconds,
    connections: options.connections ?? 10,
    overallRate: options.rate,
    headers: options.headers,
    method: options.method ?? 'GET',
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  // `seconds` stays the upper bound; `until` ends the run early (e.g. when an export finishes).
  void options.until?.finally(() => run.stop());
  const result = await run;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    answered: result.requests.total,
  };
}

/** Prints rows as an aligned table. */
export function printTable(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  for (const [i, r] of cells.entries()) {
    console.log(r.map((c, j) => c.padStart(j === 0 ? 0 : widths[j]).padEnd(j === 0 ? widths[j] : 0)).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}
