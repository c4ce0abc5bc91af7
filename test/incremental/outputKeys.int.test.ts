import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { EDIT_KINDS, GeneratedSite, readTree, seededRandom } from './generatedSite.js';
import { packSite } from './packSite.js';

/** A generated site of `pages` pages (2 more with its API pages) in a temp folder removed when the test ends. */
async function generated(t: ExecutionContext, pages: number): Promise<{ root: string; site: GeneratedSite; cache: string }> {
  const root = await mkdtemp(join(tmpdir(), 'enclave-output-keys-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(pages);
  return { root, site, cache: join(root, 'cache') };
}

/** Asserts the two zips hold the same bytes. */
async function sameZip(t: ExecutionContext, a: string, b: string, label: string): Promise<void> {
  t.true((await readFile(a)).equals(await readFile(b)), `${label}: the incremental zip is byte-identical to a full export's`);
}

for (const seed of [7, 19]) {
  test(`after random edits (seed ${seed}), pages taken unassembled from the previous zip leave it byte-identical to a full export`, async (t) => {
    const { root, site, cache } = await generated(t, 8);
    let previous = join(root, 'v0.zip');
    await packSite(site.dir, previous, { cache });
    const random = seededRandom(seed);
    let copiedInAll = 0;
    for (let step = 1; step <= 6; step++) {
      const kind = EDIT_KINDS[Math.floor(random() * EDIT_KINDS.length)];
      await site.edit(kind, random);
      const zip = join(root, `v${step}.zip`);
      const incremental = await packSite(site.dir, zip, { previous, cache });
      await packSite(site.dir, join(root, `full${step}.zip`));
      await sameZip(t, zip, join(root, `full${step}.zip`), `step ${step} (${kind})`);
      copiedInAll += incremental.copiedPages;
      previous = zip;
    }
    // Nothing changed: every page's files come from the previous zip.
    const last = await packSite(site.dir, join(root, 'again.zip'), { previous, cache });
    t.is(last.copiedPages, site.pages.length + 2);
    await sameZip(t, join(root, 'again.zip'), join(root, 'full6.zip'), 'nothing changed');
    t.true(copiedInAll > 0, 'some steps took pages unassembled');
  });
}

test('output keys follow each kind of change: a body edit re-assembles one page, a title or shared input all of them', async (t) => {
  const { root, site, cache } = await generated(t, 8);
  let previous = join(root, 'start.zip');
  await packSite(site.dir, previous, { cache });
  const total = () => site.pages.length + 2;
  const snippetUsers = () => site.pages.filter((p) => /-\d*[02468]$/.test(p)).length;
  // What each kind of change leaves copied: a title shows in every sidebar; colours, the image
  // (an input of every page) and docs.json reach every page; a snippet reaches the pages using it.
  const expected: Partial<Record<(typeof EDIT_KINDS)[number], () => number>> = {
    body: () => total() - 1,
    title: () => 0,
    snippet: () => total() - snippetUsers(),
    openapi: () => 0,
    image: () => 0,
    navigation: () => 0,
    colours: () => 0,
  };
  const random = seededRandom(3);
  const snapshot = async () => JSON.stringify([...(await readTree(site.dir))].map(([p, b]) => [p, b.toString('base64')]).sort());
  for (const kind of EDIT_KINDS) {
    const before = await snapshot();
    await site.edit(kind, random);
    // An edit may happen to change nothing (the same colour drawn again): then every page is copied.
    const unchanged = before === (await snapshot());
    const zip = join(root, `${kind}.zip`);
    const result = await packSite(site.dir, zip, { previous, cache });
    await packSite(site.dir, join(root, `${kind}-full.zip`));
    await sameZip(t, zip, join(root, `${kind}-full.zip`), kind);
    const want = expected[kind];
    if (want) t.is(result.copiedPages, unchanged ? total() : want(), `${kind}: pages taken unassembled`);
    if (kind === 'title') t.is(result.renderedPages, 1, 'title: the page is rendered, the rest only re-assembled');
    previous = zip;
  }
});

test('a damaged, forged or mismatched output record only costs assembling: the zip still matches a full export', async (t) => {
  const { root, site, cache } = await generated(t, 6);
  const record = join(cache, 'outputs.json');
  await packSite(site.dir, join(root, 'a.zip'), { cache });
  await packSite(site.dir, join(root, 'full.zip'));

  // Truncated: its checksum fails, nothing is copied.
  const whole = await readFile(record, 'utf8');
  await writeFile(record, whole.slice(0, Math.floor(whole.length / 2)));
  const cut = await packSite(site.dir, join(root, 'b.zip'), { previous: join(root, 'a.zip'), cache });
  t.is(cut.copiedPages, 0);
  await sameZip(t, join(root, 'b.zip'), join(root, 'full.zip'), 'truncated record');

  // Forged with a valid checksum: a page's recorded HTML hash no longer matches the previous
  // zip's manifest, so that page is assembled; the others are copied.
  const text = await readFile(record, 'utf8');
  const payload = JSON.parse(text.slice(65)) as { pages: Record<string, [string, string[], [string, number, string][]]> };
  const [forgedPath] = Object.keys(payload.pages);
  payload.pages[forgedPath][2][0][2] = '0'.repeat(64);
  const forged = JSON.stringify(payload);
  await writeFile(record, `${createHash('sha256').update(forged).digest('hex')}\n${forged}`);
  const c = await packSite(site.dir, join(root, 'c.zip'), { previous: join(root, 'b.zip'), cache });
  t.is(c.copiedPages, site.pages.length + 2 - 1);
  await sameZip(t, join(root, 'c.zip'), join(root, 'full.zip'), 'forged record');

  // A record newer than the previous zip (an export whose bundle is not the one handed over):
  // the edited page's hashes differ from the older zip's, so it is assembled, never copied stale.
  await site.edit('body', seededRandom(2));
  await packSite(site.dir, join(root, 'd.zip'), { previous: join(root, 'c.zip'), cache });
  const e = await packSite(site.dir, join(root, 'e.zip'), { previous: join(root, 'c.zip'), cache });
  t.is(e.copiedPages, site.pages.length + 2 - 1);
  await packSite(site.dir, join(root, 'full2.zip'));
  await sameZip(t, join(root, 'e.zip'), join(root, 'full2.zip'), 'record newer than the previous zip');
});
