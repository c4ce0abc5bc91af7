import { statfs } from 'node:fs/promises';
import { AppError } from '../platform/AppError.js';
import type { Clock } from '../platform/Clock.js';
import { RateLimiter } from './RateLimiter.js';

/** Why an ingest was turned away, or `ok`. */
export type IngestVerdict = 'ok' | 'rate' | 'disk';

/** Settings of one guard (feedback and analytics each have their own rate, and share the floor). */
export interface IngestGuardOptions {
  /** Names the guard in errors and the RateLimit-Policy header. */
  name: string;
  /** Writes accepted per minute from all clients together. */
  perMinute: number;
  /** Refuse writes while the data volume has less than this many bytes free. */
  minFreeBytes: number;
  dataDir: string;
  clock: Clock;
}

/** Free space is asked at most this often: a statfs per write would cost more than the write. */
const FREE_SPACE_TTL_MS = 1000;

/**
 * Bounds what anonymous clients can make the appliance store: a global write rate (so many
 * addresses together can't fill the disk in minutes) and a free-space floor (so writes stop
 * with a clear 507 before the volume is full and everything else starts failing). One guard
 * per ingest path, built from this one class: feedback posts and analytics events.
 */
export class IngestGuard {
  private readonly limiter: RateLimiter;
  private freeBytes = Number.POSITIVE_INFINITY;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly options: IngestGuardOptions) {
    this.limiter = new RateLimiter(`${options.name}-global`, options.perMinute, 60_000, options.clock);
  }

  /** Measures the free space now (at startup, so the first writes are judged on a real figure). */
  measure(): Promise<void> {
    return this.refresh();
  }

  /** Decides one write without waiting: the free space is the last one measured (refreshed in the background). */
  admitNow(): IngestVerdict {
    if (this.isStale()) void this.refresh();
    if (this.freeBytes < this.options.minFreeBytes) return 'disk';
    return this.limiter.consume('all').allowed ? 'ok' : 'rate';
  }

  /** Decides one write with a fresh free-space figure; throws 507 or 429 (with Retry-After) when refused. */
  async admit(): Promise<void> {
    if (this.isStale()) await this.refresh();
    if (this.freeBytes < this.options.minFreeBytes) {
      throw AppError.insufficientStorage(
        `The data volume is nearly full (less than ${this.options.minFreeBytes} bytes free); nothing was stored`,
      );
    }
    const decision = this.limiter.consume('all');
    if (!decision.allowed) {
      throw new AppError(429, `Too many ${this.options.name} writes from all clients; try again later`, {
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
  }

  private isStale(): boolean {
    const now = this.options.clock.now().getTime();
    return now - this.checkedAt >= FREE_SPACE_TTL_MS || now < this.checkedAt;
  }

  private refresh(): Promise<void> {
    this.refreshing ??= statfs(this.options.dataDir)
      .then((s) => {
        this.freeBytes = Number(s.bavail) * Number(s.bsize);
      })
      .catch(() => {
        // An unreadable volume is reported by the write itself; the floor only prevents a full one.
        this.freeBytes = Number.POSITIVE_INFINITY;
      })
      .finally(() => {
        this.checkedAt = this.options.clock.now().getTime();
        this.refreshing = null;
      });
    return this.refreshing;
  }
}
