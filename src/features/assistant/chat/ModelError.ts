/** Why a model call failed, in words a reader can be shown (no upstream bodies, no keys). */
export type ModelFailure = 'unreachable' | 'timeout' | 'upstream' | 'garbage' | 'aborted';

/**
 * A failed call to the model endpoint. The message is written for the reader's error event;
 * the upstream detail (status, the endpoint's own message) stays in `detail` for the log.
 */
export class ModelError extends Error {
  constructor(
    readonly failure: ModelFailure,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
