/** Where the appliance reads the time; tests pass a controllable one instead of patching Date. */
export interface Clock {
  now(): Date;
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
