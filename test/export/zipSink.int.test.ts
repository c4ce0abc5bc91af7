import test from 'ava';
import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { readZipDirectory } from '../../src/bundle/zip/readZipDirectory.js';
import { writeZipArchive } from '../../src/bundle/zip/writeZipArchive.js';
import { createZipSink } from '../../src/bundle/zip/createZipSink.js';
import { openFolderSink } from '../../src/bundle/openFolderSink.js';
import { renderSite } from '../../src/render/index.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('the zip sink writes a sorted, dated zip whose entries, sizes and hashes are exactly what was written', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-zipsink-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const png = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));
  await writeFile(join(dir, 'logo.png'), png);
  const sink = createZipSink();
  const page = `<p>${'repetitive text '.repeat(500)}</p>`;
  await sink.write('guides/b.html', page);
  await sink.write('a.html', 'first version');
  await sink.write('empty.txt', '');
  await sink.copy(join(dir, 'logo.png'), 'images/logo.png');
  await sink.write('a.html', 'second version'); // a rewrite replaces the entry (anchor repairs)
  t.is((await sink.read('guides/b.html')).toString(), page, 'a deflated entry reads back as written');
  await t.throwsAsync(sink.read('nope.html'), { code: 'ENOENT' });

  // The manifest's view: plain {path, size, sha256}, sorted, nothing else (no bytes).
  const listed = sink.files();
  t.deepEqual(
    listed.map((f) => Object.keys(f).sort()),
    listed.map(() => ['path', 'sha256', 'size']),
  );
  t.deepEqual(
    listed.map((f) => f.path),
    ['a.html', 'empty.txt', 'guides/b.html', 'images/logo.png'],
  );
  t.deepEqual(
    listed.find((f) => f.path === 'a.html'),
    { path: 'a.html', size: 14, sha256: sha256(Buffer.from('second version')) },
  );

  const now = new Date('2026-05-06T07:08:10Z');
  const zipPath = join(dir, 'out', 'site.zip');
  const packed = await sink.finish(zipPath, now);
  const bytes = await readFile(zipPath);
  t.is(packed.sizeBytes, bytes.length);
  t.is(packed.sha256, sha256(bytes));
  t.is(packed.entries, 4);

  const zip = new AdmZip(bytes);
  const entries = zip.getEntries();
  t.deepEqual(
    entries.map((e) => e.entryName),
    ['a.html', 'empty.txt', 'guides/b.html', 'images/logo.png'],
  );
  const byName = new Map(entries.map((e) => [e.entryName, e]));
  t.is(byName.get('a.html')!.getData().toString(), 'second version');
  t.is(byName.get('guides/b.html')!.getData().toString(), page);
  t.true(byName.get('guides/b.html')!.header.compressedSize < page.length / 10, 'text is deflated');
  t.is(byName.get('images/logo.png')!.header.method, 0, 'already-compressed formats are stored');
  t.true(byName.get('images/logo.png')!.getData().equals(png));
  t.is(byName.get('empty.txt')!.getData().length, 0);
  for (const e of entries)
    t.is(e.header.time.getTime(), new Date(2026, 4, 6, 7, 8, 10).getTime(), `${e.entryName} is dated by the job (DOS time, local)`);
  // Python's zipfile checks every CRC independently of adm-zip.
  execFileSync('python3', ['-c', 'import sys, zipfile; bad = zipfile.ZipFile(sys.argv[1]).testzip(); sys.exit(1 if bad else 0)', zipPath]);
});

test('a site rendered into the zip sink is the same bundle as the site rendered into a folder', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-zipsink-site-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const render = async (out: Parameters<typeof renderSite>[0]['out']) =>
    renderSite({
      sourceDir: join(process.cwd(), 'examples/sample-docs'),
      out,
      domain: 'd.test',
      jobId: 'j',
      now: new Date('2026-01-01T00:00:00Z'),
      generatorVersion: '1',
    });
  const folder = await openFolderSink(join(root, 'site'));
  await render(folder);
  // As export jobs run it: entries prepared on the compression thread.
  const zipSink = createZipSink({ thread: true });
  await render(zipSink);
  t.deepEqual(zipSink.files(), folder.files());
  await zipSink.finish(join(root, 'site.zip'), new Date('2026-01-01T00:00:00Z'));
  const zip = new AdmZip(join(root, 'site.zip'));
  const manifest = JSON.parse(zip.readAsText('_enclave/manifest.json')) as { files: { path: string; size: number; sha256: string }[] };
  t.true(manifest.files.length > 20);
  for (const f of manifest.files) {
    const data = zip.getEntry(f.path)!.getData();
    t.is(data.length, f.size, f.path);
    t.is(sha256(data), f.sha256, f.path);
    t.true(data.equals(await readFile(join(root, 'site', f.path))), `${f.path} matches the folder render`);
  }
});

/** Writes `count` distinct pages (and a rewrite of the first) without waiting in between. */
function writeMany(sink: ReturnType<typeof createZipSink>, count: number): Promise<void>[] {
  const writes = Array.from({ length: count }, (_, i) => sink.write(`p/${i}.html`, `<p>page ${i} ${'body text '.repeat(200 + i)}</p>`));
  writes.push(sink.write('p/0.html', 'rewritten'));
  return writes;
}

test('the compression thread builds byte-for-byte the zip the calling thread builds, also when it falls behind or is closed mid-way', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-zipthread-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const now = new Date('2026-02-03T04:05:06Z');
  const build = async (name: string, thread: boolean, closeEarly: boolean, spill = false) => {
    const spillPath = join(dir, `${name}.spill`);
    const sink = createZipSink({ thread, spillPath: spill ? spillPath : undefined });
    // More files than the thread may have waiting, all at once: the last ones, and the rewrite,
    // are prepared on this thread while older writes of the same path are still on the other.
    const writes = writeMany(sink, 100);
    if (closeEarly) await sink.close();
    await Promise.all(writes);
    t.is((await sink.read('p/0.html')).toString(), 'rewritten', `${name}: the last write of a path wins`);
    t.is((await sink.read('p/99.html')).length, sink.files().find((f) => f.path === 'p/99.html')!.size);
    await sink.finish(join(dir, `${name}.zip`), now);
    t.false(existsSync(spillPath), `${name}: no scratch file is left behind`);
    return readFile(join(dir, `${name}.zip`));
  };
  const inline = await build('inline', false, false);
  t.true((await build('thread', true, false)).equals(inline), 'thread: same bytes');
  t.true((await build('closed', true, true)).equals(inline), 'thread closed with writes pending: same bytes');
  t.true((await build('spilled', true, false, true)).equals(inline), 'entries kept in a scratch file: same bytes');
  t.true((await build('spilled-inline', false, true, true)).equals(inline), 'scratch file without the thread: same bytes');

  // Finished at once: most files still wait for the thread, and this thread deflates its share of them.
  const finishedAtOnce = async (thread: boolean) => {
    const sink = createZipSink({ thread });
    const writes = writeMany(sink, 400);
    const zip = join(dir, `at-once-${thread}.zip`);
    await sink.finish(zip, now);
    await Promise.all(writes);
    return readFile(zip);
  };
  t.true((await finishedAtOnce(true)).equals(await finishedAtOnce(false)), 'finished with files waiting for the thread: same bytes');
  execFileSync('python3', [
    '-c',
    'import sys, zipfile; bad = zipfile.ZipFile(sys.argv[1]).testzip(); sys.exit(1 if bad else 0)',
    join(dir, 'inline.zip'),
  ]);
});

test('read waits for the newest write of a path, even one issued after the read', async (t) => {
  const sink = createZipSink({ thread: true });
  t.teardown(() => sink.close());
  const first = sink.write('a.html', 'first '.repeat(1000));
  const read = sink.read('a.html');
  const second = sink.write('a.html', 'second');
  await Promise.all([first, second]);
  t.is((await read).toString(), 'second', 'a read waits for every write of its path issued before it returns');
  t.is((await sink.read('a.html')).toString(), 'second');
  t.is(sink.files().length, 1);
});

test('a sink with a scratch file keeps entries there, reads them back, and removes the file when it finishes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-zipspill-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const spillPath = join(dir, 'entries.spill');
  const sink = createZipSink({ thread: true, spillPath });
  const page = `<p>${'spilled text '.repeat(2000)}</p>`;
  await sink.write('a.html', page);
  await sink.write('b.bin', new Uint8Array([1, 2, 3]));
  const spilled = (await readFile(spillPath)).length;
  t.true(spilled > 0 && spilled < page.length, 'the compressed bytes are in the scratch file');
  t.is((await sink.read('a.html')).toString(), page, 'a spilled entry reads back as written');
  t.deepEqual([...(await sink.read('b.bin'))], [1, 2, 3]);
  await sink.finish(join(dir, 'site.zip'), new Date());
  t.deepEqual(await readdir(dir), ['site.zip'], 'only the zip is left');
  t.is(new AdmZip(join(dir, 'site.zip')).readAsText('a.html'), page);
});

test('the streamed archive is one our own bundle reader accepts, and a bundle beyond the classic zip limits fails clearly', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-ziparchive-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const sink = createZipSink({ spillPath: join(dir, 's.spill') });
  // Larger than the writer's 1 MiB chunk, so one entry is written past the reused buffer.
  const big = Buffer.from(Array.from({ length: 3 * 2 ** 20 }, (_, i) => (i * 2654435761) >>> 24));
  await sink.write('big.png', big);
  await sink.write('index.html', '<h1>hi</h1>'.repeat(100));
  const zipPath = join(dir, 'b.zip');
  const packed = await sink.finish(zipPath, new Date('2026-01-01T00:00:00Z'));
  const handle = await open(zipPath, 'r');
  try {
    const directory = await readZipDirectory(handle, packed.sizeBytes, 10);
    t.deepEqual(
      directory.entries.map((e) => e.name),
      ['big.png', 'index.html'],
    );
  } finally {
    await handle.close();
  }
  t.true(new AdmZip(zipPath).getEntry('big.png')!.getData().equals(big));

  const tooMany = Array.from({ length: 65_536 }, (_, i) => ({
    path: `p${i}.html`,
    method: 0,
    crc: 0,
    size: 0,
    compressedSize: 0,
    copyInto: () => {},
  }));
  await t.throwsAsync(writeZipArchive(join(dir, 'huge.zip'), tooMany, new Date()), {
    message: /65536 files; a zip without zip64 holds at most 65535/,
  });
  t.false(existsSync(join(dir, 'huge.zip')));
  const unreadable = [
    {
      path: 'x.html',
      method: 0,
      crc: 0,
      size: 1,
      compressedSize: 1,
      copyInto: () => {
        throw new Error('scratch file gone');
      },
    },
  ];
  await t.throwsAsync(writeZipArchive(join(dir, 'broken.zip'), unreadable, new Date()), { message: 'scratch file gone' });
  t.deepEqual((await readdir(dir)).sort(), ['b.zip'], 'a failed write leaves neither the zip nor its temp file');
});

test('a text file written in pieces (some larger than the encoding buffer, multi-byte characters across its edges) is the same file as one written whole, in the zip and in a folder, and a failing source of pieces fails the write', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-zipparts-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Pieces larger than the encoding buffer (1 MiB) and multi-byte characters at its edges too.
  const pieces = [
    ...Array.from({ length: 50 }, (_, i) => `# Page ${i} – ünïcode ✓\n\n${'text of the page '.repeat(300 + i)}\n---\n\n`),
    'é'.repeat(700_000),
    `${'x'.repeat(2 ** 20 - 3)}€€`,
    'the end\n',
  ];
  const whole = Buffer.from(pieces.join(''));
  async function* feed() {
    for (const piece of pieces) yield piece;
  }
  const zip = createZipSink({ thread: true, spillPath: join(dir, 'z.spill') });
  await zip.write('llms-full.txt', 'an older version');
  await zip.writeParts('llms-full.txt', feed());
  t.true((await zip.read('llms-full.txt')).equals(whole), 'the newest write of the path wins and reads back whole');
  t.deepEqual(zip.files(), [{ path: 'llms-full.txt', size: whole.length, sha256: sha256(whole) }]);
  await zip.finish(join(dir, 'parts.zip'), new Date());
  t.true(new AdmZip(join(dir, 'parts.zip')).getEntry('llms-full.txt')!.getData().equals(whole));
  execFileSync('python3', [
    '-c',
    'import sys, zipfile; bad = zipfile.ZipFile(sys.argv[1]).testzip(); sys.exit(1 if bad else 0)',
    join(dir, 'parts.zip'),
  ]);

  const folder = await openFolderSink(join(dir, 'site'));
  await folder.writeParts('llms-full.txt', feed());
  t.true((await readFile(join(dir, 'site', 'llms-full.txt'))).equals(whole));
  t.deepEqual(folder.files(), [{ path: 'llms-full.txt', size: whole.length, sha256: sha256(whole) }]);

  async function* failing() {
    yield pieces[0];
    throw new Error('a page copy could not be read');
  }
  const broken = createZipSink({ thread: true });
  t.teardown(() => broken.close());
  await t.throwsAsync(broken.writeParts('llms-full.txt', failing()), { message: 'a page copy could not be read' });
  t.deepEqual(broken.files(), [], 'nothing is recorded for a file whose pieces failed');
});
