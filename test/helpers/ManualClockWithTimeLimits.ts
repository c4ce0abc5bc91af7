import { ManualClock } from '../../src/platform/Clock.js';

/**
 * A ManualClock whose time limits (Clock.timeLimit) fire when the test moves the clock past
 * them, never by themselves: a test can let a request reach a stalled server first and then cut
 * it, however slowly a loaded machine gets there (a wall-clock limit of 50 ms could fire before
 * the request was even sent).
 */
export class ManualClockWithTimeLimits extends ManualClock {
  private limits: { at: number; controller: AbortController }[] = [];

  timeLimit(ms: number): AbortSignal {
    const controller = new AbortController();
    this.limits.push({ at: this.now().getTime() + ms, controller });
    return controller.signal;
  }

  /** Time limits set and not yet fired. */
  get pendingTimeLimits(): number {
    return this.limits.length;
  }

  override advance(ms: number): void {
    super.advance(ms);
    this.fireDue();
  }

  override set(at: Date | string | number): void {
    super.set(at);
    this.fireDue();
  }

  private fireDue(): void {
    const now = this.now().getTime();
    const due = this.limits.filter((limit) => limit.at <= now);
    this.limits = this.limits.filter((limit) => limit.at > now);
    // The reason AbortSignal.timeout gives, so the code under test sees what it would in production.
    for (const { controller } of due) controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }
}
