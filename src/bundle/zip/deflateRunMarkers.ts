// How runs deflated alone with a full flush are told apart and put together (see prepareStreamedEntry).

/** Ends a stream of full-flushed runs: an empty final block with fixed codes (what zlib writes for an empty finish). */
export const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** How every full-flushed run ends: the empty stored block of the flush. */
export const FLUSH_MARKER = Buffer.from([0x00, 0x00, 0xff, 0xff]);
