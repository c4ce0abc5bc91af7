import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createZipSink } from '../../src/bundle/zip/createZipSink.js';
import { PreviousBundle } from '../../src/bundle/zip/PreviousBundle.js';

const NOW = new Date('2026-03-04T05:06:07.000Z');

/** Writes `files` (and a manifest) into a zip at `zip`, copying from `previous` what it holds unchanged. */
async function pack(zip: string, files: Map<string, Buffer>, previous: string | null) {
  const sink = createZipSink({ previous: previous ? await PreviousBundle.open(previous) : null });
  for (const [rel, bytes] of files) await sink.write(rel, bytes);
  await sink.writeManifest({
    domain: 'd',
    version: 'v',
    jobId: 'j',
    createdAt: NOW.toISOString(),
    generator: { name: 'e', version: '1' },
    pages: [],
  });
  await sink.finish(zip, NOW);
  return sink.reusedEntries();
}

test('entries copied from a previous zip larger than one read come out whole, and a zip cut short fails clearly', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-previous-zip-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  // Incompressible files of uneven sizes (stored as they are): about 4 MB, so entries straddle
  // the megabyte the previous zip is read in, and one is larger than that on its own.
  const files = new Map<string, Buffer>();
  for (let i = 0; i < 40; i++) files.set(`images/${String(i).padStart(2, '0')}.png`, randomBytes(37_000 + i * 1_999));
  files.set('images/big.png', randomBytes(1_300_000));
  await pack(join(root, 'first.zip'), files, null);
  files.set('images/07.png', randomBytes(5_000));
  t.is(await pack(join(root, 'second.zip'), files, join(root, 'first.zip')), 40, 'every unchanged file is copied');
  await pack(join(root, 'full.zip'), files, null);
  t.true((await readFile(join(root, 'second.zip'))).equals(await readFile(join(root, 'full.zip'))), 'the same bytes as a full pack');

  // The previous zip loses its end after it was opened: the copy fails rather than writing a short entry.
  const sink = createZipSink({ previous: await PreviousBundle.open(join(root, 'first.zip')) });
  await truncate(join(root, 'first.zip'), 2_000_000);
  for (const [rel, bytes] of files) await sink.write(rel, bytes);
  await t.throwsAsync(sink.finish(join(root, 'third.zip'), NOW), { message: /lost its entry/ });
});
