import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test from 'ava';
import { PASSWORD, postSignIn, sessionCookie, startReaderSite } from './readerSite.js';

/** One GET through node:http, whose rawHeaders keep repeated header lines apart (fetch joins them). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; raw: string[]; body: Buffer }> {
  return new Promise((done, fail) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, raw: res.rawHeaders, body: Buffer.concat(chunks) }));
    })
      .on('error', fail)
      .end();
  });
}

/** Every value of header `name` in a rawHeaders list, one per line sent. */
function linesOf(raw: string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) values.push(raw[i + 1]);
  return values;
}

test('a signed-in reader’s page comes in brotli and gzip like an open one, privately, with one Vary line naming Cookie', async (t) => {
  const { app, clock } = await startReaderSite(t);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const get = (encoding?: string) => rawGet(`${app.url}/team/notes`, { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) });
  const plain = await get();
  t.is(plain.status, 200);
  t.true(plain.body.toString('utf8').includes('quokka'));
  t.false(plain.body.toString('utf8').includes('/oncall/runbook'), 'no link to a page this reader may not open');
  const br = await get('br, gzip');
  const gz = await get('gzip');
  t.deepEqual(linesOf(br.raw, 'content-encoding'), ['br'], 'browsers get brotli on a signed-in page too');
  t.deepEqual(linesOf(gz.raw, 'content-encoding'), ['gzip']);
  t.deepEqual(brotliDecompressSync(br.body), plain.body, 'the brotli copy is the reader’s own page, byte for byte');
  t.deepEqual(gunzipSync(gz.body), plain.body);
  for (const answer of [plain, br, gz]) {
    t.deepEqual(linesOf(answer.raw, 'vary'), ['Accept-Encoding, Cookie'], 'one Vary line naming both');
    t.deepEqual(linesOf(answer.raw, 'cache-control'), ['private, no-cache']);
  }
  const tags = [plain, br, gz].map((answer) => linesOf(answer.raw, 'etag')[0]);
  t.is(new Set(tags).size, 3, 'each representation has its own ETag');
  // The open site's reader of the same page gets other ETags: a cache can't answer one with the other.
  const site = app.control.sites.find('docs.example.com')!;
  await app.control.sites.upsert({ ...site, createdAt: clock.now().toISOString(), auth: { mode: 'none' } });
  const open = await rawGet(`${app.url}/team/notes`, { 'accept-encoding': 'br, gzip' });
  t.is(open.status, 200);
  t.deepEqual(linesOf(open.raw, 'vary'), ['Accept-Encoding']);
  t.deepEqual(linesOf(open.raw, 'content-encoding'), ['br']);
  t.false(tags.includes(linesOf(open.raw, 'etag')[0]));
});

test('a signed-in reader’s 304 keeps the private headers, and an open site’s ETag gets no 304 from the signed-in view', async (t) => {
  const { app } = await startReaderSite(t);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const first = await rawGet(`${app.url}/team/notes`, { cookie, 'accept-encoding': 'br' });
  const tag = linesOf(first.raw, 'etag')[0];
  const again = await rawGet(`${app.url}/team/notes`, { cookie, 'accept-encoding': 'br', 'if-none-match': tag });
  t.is(again.status, 304);
  t.deepEqual(linesOf(again.raw, 'vary'), ['Accept-Encoding, Cookie']);
  t.deepEqual(linesOf(again.raw, 'cache-control'), ['private, no-cache']);
  const anonymous = await rawGet(`${app.url}/team/notes`, { 'accept-encoding': 'br', 'if-none-match': tag });
  t.is(anonymous.status, 302, 'without a session the ETag reveals nothing: sign-in, as for any page');
});
