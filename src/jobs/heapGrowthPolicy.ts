import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived a full collection while the heap is
 * small: 3×. V8 derives the factor from the heap cap instead, and the worker's cap of 256 MiB
 * gives its minimum, 1.3×, so a site whose heap stays small is collected over and over for
 * nothing. On the synthetic 1,000 pages that cost 10–20% of the export's CPU time (3 interleaved
 * standalone pairs: 3,661 / 3,986 / 3,981 ms of CPU against 3,279 / 3,172 / 3,077 ms).
 */
const GENEROUS_GROWTH_PERCENT = 200;

/**
 * Once a full collection leaves more than this share of the heap cap in use, growth goes back
 * to V8's own factor, so a large site keeps the memory bound the cap is there for. On the mcp
 * corpus (the one that comes closest to the 400 MB target) peak RSS was unchanged: 390 / 381 MB
 * with this policy against 391 / 379 MB without.
 */
const TIGHTEN_AT_SHARE_OF_LIMIT = 1 / 3;

/** The state of the policy in this process (for tests). */
export const heapGrowth = { tight: false };

/**
 * Lets the V8 heap of this process grow generously while it is small and V8's way once it is
 * large (see above). Process-wide: it applies to every isolate in the process, including its
 * worker threads, whose heaps are small. Call once, early.
 */
export function relaxHeapGrowthWhileSmall(): void {
  // The flag is read each time V8 sets the next collection's limit, so it can change mid-run;
  // 0 means "not set": V8 computes the factor from the cap again.
  setFlagsFromString(`--heap-growing-percent=${GENEROUS_GROWTH_PERCENT}`);
  const limit = getHeapStatistics().heap_size_limit * TIGHTEN_AT_SHARE_OF_LIMIT;
  const observer = new PerformanceObserver((list) => {
    if (heapGrowth.tight) return;
    const major = list.getEntries().some((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!major || getHeapStatistics().used_heap_size <= limit) return;
    setFlagsFromString('--heap-growing-percent=0');
    heapGrowth.tight = true;
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
