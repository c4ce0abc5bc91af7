/**
 * A bundle that was not activated, with a reason written for the operator (shown in logs,
 * readiness and API answers). Fetch failures and verification failures both use it.
 */
export class BundleRefusedError extends Error {
  constructor(
    readonly reason: string,
    /** Which step refused it: the download/copy, or the verification of its content. */
    readonly stage: 'fetch' | 'verify' = 'verify',
  ) {
    super(reason);
    this.name = 'BundleRefusedError';
  }
}
