/** What activation learned about one served file beyond the manifest. */
export interface FileExtras {
  /** Size of the stored gzip variant, when one is worth serving. */
  gzip?: number;
  /** Size of the stored brotli variant, when one is worth serving. */
  br?: number;
  /** CSP hashes (`sha256-…`) of the page's inline scripts, so the policy can allow exactly those. */
  scriptHashes?: string[];
  /** The page declares the referrer and DNS-prefetch policies in its head (DOCUMENT_POLICY_META). */
  headPolicies?: boolean;
  /**
   * Compression was left for after the version went live (precompressSiteFiles' inline budget):
   * no variant is recorded yet, and none on disk may be served until one is.
   */
  deferred?: true;
  /**
   * SHA-256 of variants made after the version went live. They were written while it served, so
   * each is checked against this before it is first served (a crash or a hand may have left
   * other bytes there).
   */
  variantSha256?: { gzip?: string; br?: string };
}
