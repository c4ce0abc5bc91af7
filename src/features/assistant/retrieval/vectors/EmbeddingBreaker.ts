import type { Clock } from '../../../../platform/Clock.js';
import type { Readiness } from '../../../Feature.js';

/** How long the breaker stays open: `firstMs` after the first failure, doubled per failed probe up to `maxMs`. */
export interface EmbeddingBackoff {
  firstMs: number;
  maxMs: number;
}

/**
 * Leave to send one embeddings request: `closed` while the endpoint is healthy, `probe` for the
 * one request let through after a back-off. Handed back with the outcome.
 */
export type EmbeddingTicket = 'closed' | 'probe';

/**
 * A circuit breaker in front of the embedding endpoint. Without it, every search while the
 * endpoint is down or stalled waited up to `embeddingTimeoutMs` for a query vector it would not
 * get. After a failure, requests are refused (the caller ranks by keywords) until the back-off
 * has passed on the injected clock; then one request at a time probes the endpoint, and a
 * success closes the breaker. Failures of requests that were already in flight when it opened
 * do not lengthen the back-off: only a failed probe does.
 */
export class EmbeddingBreaker {
  private failures = 0;
  private retryAtMs = 0;
  private probing = false;
  private lastError = '';

  constructor(
    private readonly clock: Clock,
    private readonly backoff: EmbeddingBackoff,
  ) {}

  /** Leave to send a request now, or null (keyword ranking) while open or while another probe is out. */
  tryAcquire(): EmbeddingTicket | null {
    if (this.failures === 0) return 'closed';
    if (!this.wouldAdmit()) return null;
    this.probing = true;
    return 'probe';
  }

  /** True when tryAcquire would give leave now (it takes none: a caller checks before costly set-up). */
  wouldAdmit(): boolean {
    return this.failures === 0 || (!this.probing && this.clock.now().getTime() >= this.retryAtMs);
  }

  /** The endpoint answered: the breaker closes. Returns true when it was open (worth a log line). */
  succeeded(ticket: EmbeddingTicket): boolean {
    if (ticket === 'probe') this.probing = false;
    const wasOpen = this.failures > 0;
    this.failures = 0;
    this.lastError = '';
    return wasOpen;
  }

  /** The request failed with `reason`: the breaker opens, or stays open longer after a failed probe. */
  failed(ticket: EmbeddingTicket, reason: string): void {
    if (ticket === 'probe') this.probing = false;
    else if (this.failures > 0) return;
    this.failures++;
    this.lastError = reason;
    const delay = Math.min(this.backoff.maxMs, this.backoff.firstMs * 2 ** (this.failures - 1));
    this.retryAtMs = this.clock.now().getTime() + delay;
  }

  /** The breaker as /_enclave/ready shows it: `degraded` while searches rank by keywords only. */
  readiness(): Readiness {
    if (this.failures === 0) return { status: 'ok', embeddings: 'closed' };
    const retryAt = new Date(this.retryAtMs).toISOString();
    return {
      status: 'degraded',
      detail: `embedding endpoint failing (${this.failures} in a row, last: ${this.lastError}); searches rank by keywords only, next try ${this.probing ? 'in flight' : `at ${retryAt}`}`,
      embeddings: this.probing ? 'probing' : 'open',
      failures: this.failures,
      retryAt,
    };
  }
}
