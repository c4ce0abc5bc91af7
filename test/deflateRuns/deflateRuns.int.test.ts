import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import AdmZip from 'adm-zip';
import { sharedPath } from '../helpers/sharedDir.js';
import { packSite } from '../incremental/packSite.js';

// The site-wide files (search index, llms-full.txt, section chunks) are deflated in runs that
// the next export copies from the previous zip when their bytes recur (src/bundle/zip/PreviousRuns.ts).

const STREAMED = ['_assets/search-index.js', 'llms-full.txt', '_enclave/sections.jsonl'];

interface Layout {
  path: string;
  size: number;
  runs: [string, number, number][];
}

/** A generated site of `pages` pages, exported once into `first.zip` with an incremental cache. */
async function firstExport(t: ExecutionContext, pages: number) {
  const root = await mkdtemp(join(tmpdir(), 'enclave-deflate-runs-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const src = join(root, 'src');
  execFileSync(process.execPath, [sharedPath('bin', 'gen-corpus.mjs'), src, String(pages)], { stdio: 'ignore' });
  const cache = join(root, 'cache');
  await packSite(src, join(root, 'first.zip'), { cache });
  return { root, src, cache };
}

/** Appends a sentence to the first page of the generated site's first section. */
async function editOneBody(src: string, sentence: string): Promise<void> {
  const section = join(src, 'part-1', 'section-1');
  const page = (await readdir(section)).filter((n) => n.endsWith('.mdx')).sort()[0];
  await appendFile(join(section, page), `\n${sentence}\n`);
}

/** The record's layouts (after its checksum line). */
async function readLayouts(cache: string): Promise<Layout[]> {
  const text = await readFile(join(cache, 'deflate-runs.json'), 'utf8');
  return (JSON.parse(text.slice(65)) as { layouts: Layout[] }).layouts;
}

/** Writes `layouts` as the record, with a valid checksum (a record that claims what it likes). */
async function writeLayouts(cache: string, layouts: Layout[]): Promise<void> {
  const payload = JSON.stringify({ format: 1, layouts });
  await writeFile(join(cache, 'deflate-runs.json'), `${createHash('sha256').update(payload).digest('hex')}\n${payload}`);
}

test('one body changed: the site-wide files copy every run but the changed page’s, and the zip is a full export’s byte for byte', async (t) => {
  const { root, src, cache } = await firstExport(t, 300);
  const layouts = await readLayouts(cache);
  t.deepEqual(layouts.map((l) => l.path).sort(), [...STREAMED].sort());
  const runs = layouts.reduce((n, l) => n + l.runs.length, 0);
  // Enough runs that copying most of them means something.
  t.true(
    layouts.every((l) => l.runs.length >= 3),
    layouts.map((l) => `${l.path}: ${l.runs.length}`).join(', '),
  );

  await editOneBody(src, 'A sentence only the incremental export has seen.');
  const second = await packSite(src, join(root, 'second.zip'), { previous: join(root, 'first.zip'), cache });
  const full = await packSite(src, join(root, 'full.zip'));
  t.true((await readFile(join(root, 'second.zip'))).equals(await readFile(join(root, 'full.zip'))), 'the same bytes as a full export');
  t.is(full.copiedRuns, 0);
  // The edited page's run in each file (two where the edit moved a run's end) is deflated again; no other.
  t.true(second.copiedRuns >= runs - 2 * STREAMED.length, `${second.copiedRuns} of ${runs} runs copied`);
  t.true(second.copiedRuns < runs, 'the changed runs are deflated again');

  // Whole and valid for other readers: unzip's own test, and adm-zip's inflate of the copied runs.
  t.notThrows(() => execFileSync('unzip', ['-tq', join(root, 'second.zip')], { stdio: 'pipe' }));
  const zip = new AdmZip(join(root, 'second.zip'));
  const manifest = JSON.parse(zip.readAsText('_enclave/manifest.json')) as { files: { path: string; sha256: string }[] };
  for (const path of STREAMED) {
    const bytes = zip.getEntry(path)?.getData();
    t.truthy(bytes, path);
    const listed = manifest.files.find((f) => f.path === path)?.sha256;
    t.is(createHash('sha256').update(bytes!).digest('hex'), listed ?? '', `${path} inflates to what the manifest lists`);
  }
  t.true(zip.readAsText('llms-full.txt').includes('A sentence only the incremental export has seen.'));
});

test('a record that is damaged, shifted or names another zip copies nothing wrong: the zip stays a full export’s', async (t) => {
  const { root, src, cache } = await firstExport(t, 200);
  const layouts = await readLayouts(cache);
  await editOneBody(src, 'Another sentence.');
  const full = join(root, 'full.zip');
  await packSite(src, full);
  const expected = await readFile(full);
  let n = 0;
  /** An incremental export from first.zip with the record as it is now; its zip must be the full one. */
  const exportAgainst = async (previous = join(root, 'first.zip')) => {
    const zip = join(root, `try-${n++}.zip`);
    const result = await packSite(src, zip, { previous, cache });
    t.true((await readFile(zip)).equals(expected), `export ${n}: the same bytes as a full export`);
    return result.copiedRuns;
  };

  // Truncated: read as no record.
  const text = await readFile(join(cache, 'deflate-runs.json'), 'utf8');
  await writeFile(join(cache, 'deflate-runs.json'), text.slice(0, text.length - 40));
  t.is(await exportAgainst(), 0);

  // Every run boundary moved by one byte (the sizes still add up): no run lies between two flush markers.
  const shifted = layouts.map((l) => ({
    ...l,
    runs: l.runs.map(([sha, size, compressed], i): [string, number, number] => [
      sha,
      size,
      compressed + (i === 0 ? 1 : i === l.runs.length - 1 ? -1 : 0),
    ]),
  }));
  await writeLayouts(cache, shifted);
  // Every run after the first starts a byte late: its window ends in the next run's first byte, never in a flush marker.
  t.is(await exportAgainst(), 0);

  // A record of another zip: the entry it describes is not the previous zip's (another size): nothing is copied.
  await writeLayouts(
    cache,
    layouts.map((l) => ({ ...l, size: l.size + 1 })),
  );
  t.is(await exportAgainst(), 0);

  // The true record, against a previous zip that is not the one it describes.
  await writeLayouts(cache, layouts);
  t.is(await exportAgainst(join(root, 'try-0.zip')), 0, 'try-0.zip holds the edited text: its entries differ');
  // (Each export wrote its own record over the one put there.)
  await writeLayouts(cache, layouts);
  t.true((await exportAgainst()) > 0, 'the true record against its own zip is used');
});
