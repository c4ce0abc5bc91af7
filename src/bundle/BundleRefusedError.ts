/**
 * A bundle that was not activated, with a reason written for the operator (shown in logs,
 * readiness and API answers). Fetch failures and verification failures both use it.
 */
export class BundleRefusedError extends Error {
  constructor(
    readonly reason: string,
    /**
     * Which step refused it: the download/copy, the verification of its content, its build
     * report (pages that failed to render), or its domain (built for another site).
     */
    readonly stage: 'fetch' | 'verify' | 'report' | 'domain' = 'verify',
  ) {
    super(reason);
    this.name = 'BundleRefusedError';
  }
}
