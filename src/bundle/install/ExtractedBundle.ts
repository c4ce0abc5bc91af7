import type { BundleManifest } from '../bundleManifest.js';

/** What an extraction produced: the verified manifest (every listed file is on disk, intact). */
export interface ExtractedBundle {
  manifest: BundleManifest;
  fileCount: number;
  extractedBytes: number;
  /** Files taken from the base version rather than extracted: linked (or copied), or referred to. */
  linked: Set<string>;
  /** Of those, the ones left where the base keeps them (a layered version; see LinkBase.refer). */
  referred?: Set<string>;
}
