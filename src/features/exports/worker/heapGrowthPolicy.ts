import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived a full collection while the
 * process is small: 3×. V8 derives the factor from the heap cap instead, and the worker's cap of
 * 256 MiB gives its minimum, 1.3×, so a site whose heap stays small is collected over and over
 * for nothing. On the synthetic 1,000 pages that cost 10–20% of the export's CPU time (3
 * interleaved standalone pairs: 3,661 / 3,986 / 3,981 ms of CPU against 3,279 / 3,172 / 3,077 ms).
 */
const GENEROUS_GROWTH_PERCENT = 200;

/**
 * Growth goes back to V8's own factor after the first collection (of either generation) that
 * finds the process above this RSS, so a large site keeps the memory bound the heap cap is there
 * for. The synthetic 1,000 pages peak at about 220 MB with generous growth. The mcp corpus, the
 * one that comes closest to the 400 MB target, passes 256 MB within its first pages (the regexes
 * of its 31 grammars alone take 100 MB of WebAssembly memory). Deciding on the heap alone (a
 * third of the cap in use, at full collections) let it reach 401 and 410 MB in two of four
 * exports through the server.
 */
export const GENEROUS_WHILE_RSS_BELOW = 256 * 2 ** 20;

/** The state of the policy in this process (for tests). */
export const heapGrowth = { tight: false };

/**
 * Lets the V8 heap of this process grow generously while the process is small and V8's way
 * once it is large (see above). Process-wide: it applies to every isolate in the process,
 * including its worker threads, whose heaps are small. Call once, early.
 */
export function relaxHeapGrowthWhileSmall(rssBudget = GENEROUS_WHILE_RSS_BELOW): void {
  // The flag is read each time V8 sets the next collection's limit, so it can change mid-run;
  // 0 means "not set": V8 computes the factor from the cap again.
  setFlagsFromString(`--heap-growing-percent=${GENEROUS_GROWTH_PERCENT}`);
  // Young-generation collections come every few megabytes of allocation, so the switch follows
  // the process's growth closely; a full collection that set a generous limit just before still
  // stands until the next one.
  const observer = new PerformanceObserver(() => {
    if (heapGrowth.tight || process.memoryUsage.rss() <= rssBudget) return;
    setFlagsFromString('--heap-growing-percent=0');
    heapGrowth.tight = true;
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
