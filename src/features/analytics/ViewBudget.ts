import { RateLimiter } from '../../http/RateLimiter.js';
import type { Clock } from '../../platform/Clock.js';

/** Settings of the per-address view budget (config `analytics.*`). */
export interface ViewBudgetOptions {
  /** A visitor's repeated GET (or 304) of one page within this many ms is one view. */
  repeatViewMs: number;
  /** Views counted per client address per minute; more are not counted. */
  viewsPerAddressPerMinute: number;
  /** New visitors one address may add per hour; past it its views count as one more visitor only. */
  visitorsPerAddressPerHour: number;
  clock: Clock;
}

/** What to count for a served page: nothing, or a view by `visitor`. */
export type ViewVerdict = { count: false; reason: 'repeat' | 'address' } | { count: true; visitor: string };

/** Entries of each memory (recent views, known visitors); the oldest go first past it. */
const REMEMBERED = 100_000;

/**
 * What one client may add to the view and visitor counts, decided before the global budget
 * is touched so one address can't spend it for everyone: a page fetched again by the same
 * visitor within `repeatViewMs` (reloads, conditional requests answered 304) is one view;
 * an address gets `viewsPerAddressPerMinute` views; and past `visitorsPerAddressPerHour` new
 * visitors (a client inventing a User-Agent per request) its views are all filed under one
 * overflow visitor of that address. Memory is bounded: both memories forget their oldest.
 */
export class ViewBudget {
  private readonly recentViews = new Map<string, number>();
  private readonly knownVisitors = new Map<string, true>();
  private readonly views: RateLimiter;
  private readonly visitors: RateLimiter;

  constructor(private readonly options: ViewBudgetOptions) {
    this.views = new RateLimiter('views-per-address', options.viewsPerAddressPerMinute, 60_000, options.clock);
    this.visitors = new RateLimiter('visitors-per-address', options.visitorsPerAddressPerHour, 60 * 60_000, options.clock);
  }

  /**
   * Decides one served page for `visitor` (the day's id of `address` + user agent);
   * `overflow` gives the address's overflow visitor id when its new-visitor budget is spent.
   */
  admit(address: string, visitor: string, page: string, overflow: () => string): ViewVerdict {
    const now = this.options.clock.now().getTime();
    const key = `${visitor}\n${page}`;
    const last = this.recentViews.get(key);
    // A clock set back makes `now < last`: count again rather than never.
    if (last !== undefined && now >= last && now - last < this.options.repeatViewMs) return { count: false, reason: 'repeat' };
    if (!this.views.consume(address).allowed) return { count: false, reason: 'address' };
    this.recentViews.delete(key);
    remember(this.recentViews, key, now);
    if (this.knownVisitors.has(visitor)) return { count: true, visitor };
    if (!this.visitors.consume(address).allowed) return { count: true, visitor: overflow() };
    remember(this.knownVisitors, visitor, true);
    return { count: true, visitor };
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value as string);
}
