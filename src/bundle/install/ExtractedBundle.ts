import type { BundleManifest } from '../bundleManifest.js';

/** What an extraction produced: the verified manifest (every listed file is on disk, intact). */
export interface ExtractedBundle {
  manifest: BundleManifest;
  fileCount: number;
  extractedBytes: number;
}
