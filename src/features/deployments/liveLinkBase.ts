import { readFile } from 'node:fs/promises';
import { fileFingerprint, type LinkBase } from '../../bundle/install/LinkBase.js';
import type { FileExtras } from '../../bundle/install/precompressSiteFiles.js';
import { storedManifests } from './StoredRecords.js';
import { readVersionOrigins } from './VersionOrigins.js';
import { type VersionLayout, versionLayout } from './versionLayout.js';

/** The live version as a LinkBase, and which version folder holds each of its files. */
export type LiveLinkBase = LinkBase & {
  /** The id of the version whose folder holds `path`'s bytes (the live one, or one it is layered over). */
  holderOf(path: string): string;
};

/**
 * The live version as the base a new one takes its unchanged files from (see LinkBase), read
 * from the manifest, extras and origins stored with it; undefined without a live version or when
 * those can't be read (the new version is then written in full, as before). With `refer`, the
 * new version is layered over it rather than linking.
 */
export async function liveLinkBase(versionsDir: string, liveId: string | undefined, refer = false): Promise<LiveLinkBase | undefined> {
  if (liveId === undefined) return undefined;
  const layout = versionLayout(versionsDir, liveId);
  try {
    const manifest = await storedManifests.read(layout.manifest);
    const extras = JSON.parse(await readFile(layout.extras, 'utf8')) as Record<string, FileExtras>;
    const origins = await readVersionOrigins(layout.origins);
    const holderOf = (path: string) => {
      const index = origins?.files[path];
      return index === undefined ? liveId : origins!.holders[index];
    };
    // One layout per holder, not per file: locate runs for every unchanged file (tens of thousands).
    const layouts = new Map<string, VersionLayout>();
    return {
      locate: (path) => {
        const id = holderOf(path);
        let holder = layouts.get(id);
        if (!holder) layouts.set(id, (holder = versionLayout(versionsDir, id)));
        return { filesDir: holder.files, encodedDir: holder.encoded };
      },
      holderOf,
      // A file whose compression was deferred and not done yet is not taken: the new version
      // writes and compresses its own copy, so no version waits on another's variants.
      fingerprints: new Map(manifest.files.filter((f) => !extras[f.path]?.deferred).map((f) => [f.path, fileFingerprint(f)])),
      extras,
      refer,
    };
  } catch {
    return undefined;
  }
}
