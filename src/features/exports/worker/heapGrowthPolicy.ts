import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived a full collection while the
 * process is small: 3×. V8 derives the factor from the heap cap instead, and the worker's cap of
 * 256 MiB gives its minimum, 1.3×, so a site whose heap stays small is collected over and over
 * for nothing, a visible share of a small export's CPU time.
 */
const GENEROUS_GROWTH_PERCENT = 200;

/**
 * Growth goes back to V8's own factor after the first collection (of either generation) that
 * finds the process above this RSS, so a large site keeps the memory bound the heap cap is there
 * for. A small site stays below it with generous growth; a large site with many fence languages
 * passes it within its first pages (its grammars' regexes live in WebAssembly memory, outside the
 * heap). Deciding on the heap alone (a third of the cap in use, at full collections) let such a
 * site overshoot the 400 MB target.
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
