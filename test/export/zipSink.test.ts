import test from 'ava';
import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createZipSink } from '../../src/bundle/createZipSink.js';
import { openFolderSink } from '../../src/render/output/openFolderSink.js';
import { renderSite } from '../../src/render/renderSite.js';

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
  t.deepEqual(listed.map((f) => Object.keys(f).sort()), listed.map(() => ['path', 'sha256', 'size']));
  t.deepEqual(listed.map((f) => f.path), ['a.html', 'empty.txt', 'guides/b.html', 'images/logo.png']);
  t.deepEqual(listed.find((f) => f.path === 'a.html'), { path: 'a.html', size: 14, sha256: sha256(Buffer.from('second version')) });

  const now = new Date('2026-05-06T07:08:10Z');
  const zipPath = join(dir, 'out', 'site.zip');
  const packed = await sink.finish(zipPath, now);
  const bytes = await readFile(zipPath);
  t.is(packed.sizeBytes, bytes.length);
  t.is(packed.sha256, sha256(bytes));
  t.is(packed.entries, 4);

  const zip = new AdmZip(bytes);
  const entries = zip.getEntries();
  t.deepEqual(entries.map((e) => e.entryName), ['a.html', 'empty.txt', 'guides/b.html', 'images/logo.png']);
  const byName = new Map(entries.map((e) => [e.entryName, e]));
  t.is(byName.get('a.html')!.getData().toString(), 'second version');
  t.is(byName.get('guides/b.html')!.getData().toString(), page);
  t.true(byName.get('guides/b.html')!.header.compressedSize < page.length / 10, 'text is deflated');
  t.is(byName.get('images/logo.png')!.header.method, 0, 'already-compressed formats are stored');
  t.true(byName.get('images/logo.png')!.getData().equals(png));
  t.is(byName.get('empty.txt')!.getData().length, 0);
  for (const e of entries) t.is(e.header.time.getTime(), new Date(2026, 4, 6, 7, 8, 10).getTime(), `${e.entryName} is dated by the job (DOS time, local)`);
  // Python's zipfile checks every CRC independently of adm-zip.
  execFileSync('python3', ['-c', 'import sys, zipfile; bad = zipfile.ZipFile(sys.argv[1]).testzip(); sys.exit(1 if bad else 0)', zipPath]);
});

test('a site rendered into the zip sink is the same bundle as the site rendered into a folder', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-zipsink-site-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const render = async (out: Parameters<typeof renderSite>[0]['out']) =>
    renderSite({ sourceDir: join(process.cwd(), 'examples/sample-docs'), out, domain: 'd.test', jobId: 'j', now: new Date('2026-01-01T00:00:00Z'), generatorVersion: '1' });
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
  const build = async (name: string, thread: boolean, closeEarly: boolean) => {
    const sink = createZipSink({ thread });
    // More files than the thread may have waiting, all at once: the last ones, and the rewrite,
    // are prepared on this thread while older writes of the same path are still on the other.
    const writes = writeMany(sink, 100);
    if (closeEarly) await sink.close();
    await Promise.all(writes);
    t.is((await sink.read('p/0.html')).toString(), 'rewritten', `${name}: the last write of a path wins`);
    t.is((await sink.read('p/99.html')).length, sink.files().find((f) => f.path === 'p/99.html')!.size);
    await sink.finish(join(dir, `${name}.zip`), now);
    return readFile(join(dir, `${name}.zip`));
  };
  const inline = await build('inline', false, false);
  t.true((await build('thread', true, false)).equals(inline), 'thread: same bytes');
  t.true((await build('closed', true, true)).equals(inline), 'thread closed with writes pending: same bytes');
  execFileSync('python3', ['-c', 'import sys, zipfile; bad = zipfile.ZipFile(sys.argv[1]).testzip(); sys.exit(1 if bad else 0)', join(dir, 'inline.zip')]);
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
