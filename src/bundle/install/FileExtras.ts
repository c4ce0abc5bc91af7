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
}
