/**
 * Appends chunks to one output in position order although they are produced out of order:
 * chunks wait until every earlier position has been put or skipped.
 */
export function createOrderedWriter(write: (text: string) => Promise<void>) {
  const waiting = new Map<number, string | null>();
  let nextPosition = 0;
  let chain: Promise<void> = Promise.resolve();
  const release = () => {
    while (waiting.has(nextPosition)) {
      const text = waiting.get(nextPosition)!;
      waiting.delete(nextPosition);
      nextPosition++;
      if (text !== null) chain = chain.then(() => write(text));
    }
  };
  return {
    /** Queues the chunk for `position`; resolves once it (and all before it) are written, or once queued if earlier ones are missing. */
    put(position: number, text: string): Promise<void> {
      waiting.set(position, text);
      release();
      return waiting.size === 0 ? chain : Promise.resolve();
    },
    /** Marks `position` as producing nothing. */
    skip(position: number): void {
      waiting.set(position, null);
      release();
    },
    /** Resolves once everything released so far is written. */
    drained(): Promise<void> {
      return chain;
    },
  };
}
