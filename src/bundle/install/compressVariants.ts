import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** Below this, compression saves less than the headers it costs. */
export const MIN_COMPRESS_BYTES = 512;
/** Larger files are served uncompressed rather than held in memory to compress. */
export const MAX_COMPRESS_BYTES = 32 * 1024 * 1024;
/** A variant is kept only when it saves at least this fraction. */
const MAX_KEPT_RATIO = 0.9;
/** Brotli's top qualities cost seconds per megabyte; these keep a large bundle's activation to seconds. */
const BROTLI_QUALITY_SMALL = 6;
/**
 * Over LARGE_FILE_BYTES: the site-wide files (search index, llms-full.txt, tens of MB on 10,000
 * pages) change with any page, so their compression is most of a one-page deploy. On 21 MB of
 * search index quality 4 took 265 ms of CPU against 632 at 5, for a file 6% larger (3.80 / 3.57 MB).
 */
const BROTLI_QUALITY_LARGE = 4;
const LARGE_FILE_BYTES = 1024 * 1024;
/**
 * gzip's level for files under and over LARGE_FILE_BYTES. The large ones are the site-wide files
 * (search index, llms-full.txt) that change with any page: at level 9 they were most of a
 * one-page change's activation on a large site; browsers take brotli, so gzip size matters less.
 */
const GZIP_LEVEL_SMALL = 9;
const GZIP_LEVEL_LARGE = 4;

/** The gzip and brotli variants of a file worth storing (each saves at least 10%); none for a small file. */
export interface CompressedVariants {
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * Compresses `data` with gzip and brotli at once on the thread pool (the event loop never
 * compresses), at the levels for its size, and keeps the variants worth serving. Used before a
 * version goes live (precompressSiteFiles) and after, for what was deferred (settleVariants).
 */
export async function compressVariants(data: Buffer): Promise<CompressedVariants> {
  if (data.length < MIN_COMPRESS_BYTES) return {};
  const large = data.length > LARGE_FILE_BYTES;
  const [gz, br] = await Promise.all([
    gzipAsync(data, { level: large ? GZIP_LEVEL_LARGE : GZIP_LEVEL_SMALL }),
    brotliAsync(data, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: large ? BROTLI_QUALITY_LARGE : BROTLI_QUALITY_SMALL,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    }),
  ]);
  const kept: CompressedVariants = {};
  if (gz.length <= data.length * MAX_KEPT_RATIO) kept.gzip = gz;
  if (br.length <= data.length * MAX_KEPT_RATIO) kept.br = br;
  return kept;
}
