import type { RunLayout, TextPiece } from '../BundleSink.js';
import { prepareStreamedEntry, type StreamedEntryData } from './prepareStreamedEntry.js';
import type { PreviousBundle } from './PreviousBundle.js';
import { PreviousRuns } from './PreviousRuns.js';

/**
 * The zip sink's streamed files (see prepareStreamedEntry): the runs of the previous zip they may
 * copy, once told how that zip deflated its own (`reuseRuns`), and how each was deflated now,
 * for the next export.
 */
export class StreamedFiles {
  private runs: PreviousRuns | null = null;
  private readonly written = new Map<string, RunLayout>();

  constructor(private readonly previous: PreviousBundle | null) {}

  /** Lets the files streamed from now on copy the runs of these layouts that the previous zip holds. */
  reuseRuns(layouts: readonly RunLayout[]): void {
    if (this.previous) this.runs = PreviousRuns.of(this.previous, layouts);
  }

  /** The entry of a file streamed as `parts`; its layout is kept once it is ready. */
  async prepare(rel: string, parts: AsyncIterable<TextPiece>): Promise<StreamedEntryData> {
    const entry = await prepareStreamedEntry(rel, parts, this.runs);
    this.written.set(rel, entry.layout);
    return entry;
  }

  /** How each file streamed so far was deflated. */
  layouts(): RunLayout[] {
    return [...this.written.values()];
  }

  /** Runs copied from the previous zip so far. */
  get copiedRuns(): number {
    return this.runs?.copied ?? 0;
  }
}
