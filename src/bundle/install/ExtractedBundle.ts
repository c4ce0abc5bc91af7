import type { BundleManifest } from '../bundleManifest.js';

/** What an extraction produced: the verified manifest (every listed file is on disk, intact). */
export interface ExtractedBundle {
  manifest: BundleManifest;
  fileCount: number;
  extractedBytes: number;
  /** Files linked (or copied) from the base version rather than extracted. */
  linked: Set<string>;
}
