import { ModelError } from './ModelError.js';

/**
 * One timer over a model call: armed for each wait (headers, first token, next token) with
 * that wait's limit, it aborts the call with a `timeout` ModelError when the wait runs out.
 * Paused while the answer is handed on, so a slow reader is not blamed on the model.
 */
export class Watchdog {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly controller: AbortController) {}

  /** Starts (or restarts) the wait: after `ms` the call is aborted with `message`. */
  arm(ms: number, message: string): void {
    this.pause();
    this.timer = setTimeout(() => this.controller.abort(new ModelError('timeout', message, `no progress for ${ms} ms`)), ms);
    this.timer.unref?.();
  }

  /** Stops the current wait without aborting. */
  pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
