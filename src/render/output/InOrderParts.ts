import type { TextPiece } from '../../bundle/BundleSink.js';

/**
 * Text pieces (strings or UTF-8 bytes) of a file handed in by position, in any order, and read as an async iterable in
 * position order: a site-wide file can be written while pages still render (pages finish out of
 * order when extra threads render some of them). Positions 0…count-1 must each be given once;
 * `fail` ends the iteration with an error instead.
 */
export class InOrderParts<Piece extends TextPiece = string> implements AsyncIterable<Piece> {
  private readonly early = new Map<number, Piece[]>();
  private next = 0;
  private ready: Piece[] = [];
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly count: number) {}

  /** The pieces of `position` (none for a position that contributes nothing). */
  put(position: number, pieces: Piece[]): void {
    this.early.set(position, pieces);
    for (let own = this.early.get(this.next); own; own = this.early.get(this.next)) {
      this.early.delete(this.next++);
      this.ready.push(...own);
    }
    this.wake?.();
  }

  /** Says every position has been given; one that hasn't fails the iteration rather than leave it waiting. */
  end(): void {
    if (this.next < this.count) this.fail(new Error(`${this.count - this.next} of ${this.count} parts never arrived`));
  }

  /** Ends the iteration with `error` (the file will not be complete). */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Piece> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.ready.length > 0) {
        const batch = this.ready;
        this.ready = [];
        yield* batch;
      } else if (this.next >= this.count) {
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
      }
    }
  }
}
