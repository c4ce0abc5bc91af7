/** Where the appliance reads the time; tests pass a controllable one instead of patching Date. */
export interface Clock {
  now(): Date;
  /**
   * A signal that aborts once `ms` have passed on this clock. Optional: without it a time limit
   * is the wall clock's (see `timeLimit`). A test's clock may give one that fires only when the
   * test moves it, so that machine load can neither fire a limit early nor hold it back.
   */
  timeLimit?(ms: number): AbortSignal;
}

/** A time limit of `ms` on `clock`: its own when it has one, else the wall clock's. */
export function timeLimit(clock: Clock, ms: number): AbortSignal {
  return clock.timeLimit?.(ms) ?? AbortSignal.timeout(ms);
}

/** One day in milliseconds, for retention and archive ages. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The real wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and move, forwards or backwards. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  /** Moves the clock by `ms` (negative moves it back). */
  advance(ms: number): void {
    this.ms += ms;
  }
  set(at: Date | string | number): void {
    this.ms = new Date(at).getTime();
  }
}
