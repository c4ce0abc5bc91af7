import type { RunLayout } from '../BundleSink.js';
import { FINAL_BLOCK, FLUSH_MARKER } from './deflateRunMarkers.js';
import type { PreviousBundle } from './PreviousBundle.js';

/** Where a run's compressed bytes lie in the previous zip. */
interface RunPlace {
  position: number;
  compressedSize: number;
  /** Whether it is its entry's first run (no run ends right before it). */
  first: boolean;
}

/**
 * The deflate runs of the previous zip's streamed entries (see RunLayout), by the SHA-256 of
 * their bytes: a streamed file of the next export copies a run whose bytes recur (every run but
 * the one holding a changed page, on a one-page edit) instead of deflating it again. A layout is
 * used only when the previous zip's entry at its path has the layout's size, CRC-32 and
 * compressed size, its manifest lists the same SHA-256, and the runs add up to the entry's data;
 * a copied run must lie between two flush markers (the end of the run before it and its own). A
 * record that describes another zip
 * (a failed export's, a damaged one) is thus ignored, and the file is deflated as in a full export.
 */
export class PreviousRuns {
  /** Runs copied so far. */
  copied = 0;

  private constructor(
    private readonly previous: PreviousBundle,
    private readonly places: Map<string, RunPlace>,
  ) {}

  /** The runs of the `layouts` that `previous` really holds. */
  static of(previous: PreviousBundle, layouts: readonly RunLayout[]): PreviousRuns {
    const places = new Map<string, RunPlace>();
    for (const layout of layouts) {
      const found = previous.entryOf(layout.path);
      if (!found || !describes(layout, found.entry, found.listed)) continue;
      let position = previous.dataStartOf(found.entry);
      if (position === undefined) continue;
      let first = true;
      for (const [sha256, size, compressedSize] of layout.runs) {
        places.set(`${size}:${sha256}`, { position, compressedSize, first });
        position += compressedSize;
        first = false;
      }
    }
    return new PreviousRuns(previous, places);
  }

  /** How many distinct runs can be copied. */
  get size(): number {
    return this.places.size;
  }

  /** The compressed bytes of the run of `size` bytes with this SHA-256 (base64), if the previous zip holds one. */
  take(sha256: string, size: number): Buffer | undefined {
    const place = this.places.get(`${size}:${sha256}`);
    if (!place) return undefined;
    // With the end of the run before it (a flush marker too), so a run is taken only from between two run ends.
    const before = place.first ? 0 : FLUSH_MARKER.length;
    const bytes = this.previous.bytesAt(place.position - before, place.compressedSize + before);
    if (!bytes || !endsWithFlush(bytes) || (before > 0 && !endsWithFlush(bytes.subarray(0, before)))) return undefined;
    this.copied++;
    return bytes.subarray(before);
  }
}

/** Whether `layout` describes the entry the previous zip and its manifest hold at its path. */
function describes(
  layout: RunLayout,
  entry: { crc32: number; uncompressedSize: number; compressedSize: number; method: number },
  listed: string | undefined,
): boolean {
  if (entry.method !== 8 || entry.crc32 !== layout.crc || entry.uncompressedSize !== layout.size) return false;
  if (entry.compressedSize !== layout.compressedSize || listed !== `${layout.size}:${layout.sha256}`) return false;
  let size = 0;
  let compressed = FINAL_BLOCK.length;
  for (const [, runSize, runCompressed] of layout.runs) {
    size += runSize;
    compressed += runCompressed;
  }
  return size === layout.size && compressed === layout.compressedSize;
}

/** A full flush ends with an empty stored block: bytes that don't are not a run's end. */
function endsWithFlush(bytes: Buffer): boolean {
  return bytes.length >= FLUSH_MARKER.length && bytes.subarray(bytes.length - FLUSH_MARKER.length).equals(FLUSH_MARKER);
}
