import test from 'ava';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DOCUMENT_POLICY_META } from '../../src/platform/documentPolicyMeta.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, startLoggedAppliance, type LoggedAppliance } from './helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle, type SiteFiles } from './helpers/testBundles.js';

/** One appliance with one bundle, shared by the (read-only) tests of this file. */
let app: LoggedAppliance;
let files: SiteFiles;

test.before(async () => {
  const dir = await makeTempDir('enclave-site-');
  const zip = join(dir, 'site.zip');
  files = await writeBundle(zip, 'site-1', {
    files: makeSiteFiles('site-1', {
      'dir with space/page é.html': Buffer.from('<p>unicode</p>'),
      'api/try.html': Buffer.from('<details class="enclave-try" data-enclave-try="" data-method="GET"><summary>Try it</summary></details>'),
      'images/diagram.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'declared.html': Buffer.from(
        `<!doctype html><html><head><meta charset="utf-8">${DOCUMENT_POLICY_META}</head><body><p>self-declared</p></body></html>`,
      ),
      'in-body.html': Buffer.from(`<!doctype html><html><head><meta charset="utf-8"></head><body>${DOCUMENT_POLICY_META}</body></html>`),
    }),
    // The renderer lists a "Try it" page in the manifest with its spec's server origins.
    manifestFields: {
      pages: [
        { path: '/', title: 'Home', file: 'index.html' },
        { path: '/guides/start', title: 'Start', file: 'guides/start.html' },
        { path: '/api/try', title: 'Try', file: 'api/try.html', tryIt: { connect: ['https://api.example.com'] } },
      ],
    },
  });
  app = await startLoggedAppliance();
  const record = await deployAndWait(app, { bundleUrl: zip });
  if (record.status !== 'active') throw new Error(`deploy failed: ${JSON.stringify(record)}`);
});
test.after.always(() => app?.close());

/** A request with the path sent exactly as given (fetch would normalise `..` and backslashes). */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const cssPath = () => Object.keys(files).find((p) => p.endsWith('.css'))!;

test('URL rules: /, /a/b, /a/b.html, /a/ and redirects to the URL a page was written for', async (t) => {
  for (const [path, file] of [
    ['/', 'index.html'],
    ['/index.html', 'index.html'],
    ['/guides/start', 'guides/start.html'],
    ['/guides/start.html', 'guides/start.html'],
    ['/guides/', 'guides/index.html'],
    ['/reference', 'reference.html'],
    ['/llms.txt', 'llms.txt'],
    ['/guides/start.md', 'guides/start.md'],
    ['/dir%20with%20space/page%20%C3%A9', 'dir with space/page é.html'],
    ['/guides/start?utm=1', 'guides/start.html'],
  ] as const) {
    const res = await rawGet(path);
    t.is(res.status, 200, path);
    t.deepEqual(res.body, files[file], path);
  }
  const toSlash = await rawGet('/guides?x=1');
  t.is(toSlash.status, 301);
  t.is(toSlash.headers.location, '/guides/?x=1');
  const noSlash = await rawGet('/reference/');
  t.is(noSlash.status, 301);
  t.is(noSlash.headers.location, '/reference');
});

test('content types, cache policy, ETag and 304', async (t) => {
  const page = await rawGet('/guides/start');
  t.is(page.headers['content-type'], 'text/html; charset=utf-8');
  t.is(page.headers['cache-control'], 'no-cache');
  const etag = page.headers.etag as string;
  t.regex(etag, /^"[0-9a-f]{16}"$/);
  const again = await rawGet('/guides/start', { 'If-None-Match': `"nope", ${etag}` });
  t.is(again.status, 304);
  t.is(again.body.length, 0);
  t.is(again.headers.etag, etag);
  t.is((await rawGet('/guides/start', { 'If-None-Match': `W/${etag}` })).status, 304, 'weak comparison');
  t.is((await rawGet('/guides/start', { 'If-None-Match': '"other"' })).status, 200);

  const css = await rawGet(`/${cssPath()}`);
  t.is(css.headers['content-type'], 'text/css; charset=utf-8');
  t.is(css.headers['cache-control'], 'public, max-age=31536000, immutable');
  const png = await rawGet('/_assets/logo.png');
  t.is(png.headers['content-type'], 'image/png');
  t.is(png.headers['cache-control'], 'no-cache', 'names without a content hash are revalidated');
  t.is((await rawGet('/sitemap.xml')).headers['content-type'], 'application/xml; charset=utf-8');
  t.is((await rawGet('/guides/start.md')).headers['content-type'], 'text/markdown; charset=utf-8');
});

test('gzip and brotli variants by Accept-Encoding, with Vary, decoding to the exact file', async (t) => {
  const original = files['guides/start.html'];
  const br = await rawGet('/guides/start', { 'Accept-Encoding': 'gzip, deflate, br' });
  t.is(br.headers['content-encoding'], 'br');
  t.is(br.headers.vary, 'Accept-Encoding');
  t.deepEqual(brotliDecompressSync(br.body), original);
  t.true(br.body.length < original.length);
  t.is(Number(br.headers['content-length']), br.body.length);
  const gz = await rawGet('/guides/start', { 'Accept-Encoding': 'gzip' });
  t.is(gz.headers['content-encoding'], 'gzip');
  t.deepEqual(gunzipSync(gz.body), original);
  t.not(gz.headers.etag, br.headers.etag, 'each representation has its own ETag');
  const refusedBr = await rawGet('/guides/start', { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' });
  t.is(refusedBr.headers['content-encoding'], 'gzip');
  const none = await rawGet('/guides/start', { 'Accept-Encoding': 'identity' });
  t.is(none.headers['content-encoding'], undefined);
  t.deepEqual(none.body, original);
  const star = await rawGet('/guides/start', { 'Accept-Encoding': '*' });
  t.is(star.headers['content-encoding'], 'br');
  const png = await rawGet('/_assets/logo.png', { 'Accept-Encoding': 'br' });
  t.is(png.headers['content-encoding'], undefined, 'images are not recompressed');
});

test('HEAD answers headers and length without a body; other methods get 405', async (t) => {
  const head = await rawGet('/guides/start', {}, 'HEAD');
  t.is(head.status, 200);
  t.is(Number(head.headers['content-length']), files['guides/start.html'].length);
  t.is(head.body.length, 0);
  const post = await rawGet('/guides/start', {}, 'POST');
  t.is(post.status, 405);
  t.is(post.headers.allow, 'GET, HEAD');
});

test('unknown paths get 404.html with status 404', async (t) => {
  const res = await rawGet('/no/such/page');
  t.is(res.status, 404);
  t.deepEqual(res.body, files['404.html']);
  t.is(res.headers['content-type'], 'text/html; charset=utf-8');
  t.is(res.headers.etag, undefined);
});

test('CSP: own scripts, styles, images, fonts and feedback posts; inline scripts only by hash; nothing remote', async (t) => {
  const res = await rawGet('/');
  const csp = res.headers['content-security-policy'] as string;
  const inline = /<script>([^<]*)<\/script>/.exec(files['index.html'].toString())![1];
  const hash = createHash('sha256').update(inline).digest('base64');
  t.true(csp.includes(`script-src 'self' 'sha256-${hash}'`), csp);
  // Hash sources only ever match inline scripts, so a hash in a fallback list loads nothing.
  for (const fetchKind of ['connect-src', 'media-src', 'frame-src', 'worker-src'])
    t.true(
      (effectiveSource(csp, fetchKind) ?? '').split(' ').every((s) => s === "'self'" || s.startsWith("'sha256-")),
      `${fetchKind}: only the site itself`,
    );
  t.is(effectiveSource(csp, 'default-src'), "'self'");
  t.true(csp.includes("img-src 'self' data:"));
  t.true(csp.includes("object-src 'none'"));
  t.false(/https?:/.test(csp), 'no remote origin');
  t.false(csp.includes('upgrade-insecure-requests'), "the API's helmet policy is replaced");
  t.is(res.headers['x-content-type-options'], 'nosniff');
});

test('site security headers: each where it acts, none of the retired ones; documents refuse framing by CSP', async (t) => {
  const everywhere = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  // Pages and SVG are documents a browser shows (SVG can run script): the CSP and the document headers.
  for (const path of ['/', '/no/such/page', '/images/diagram.svg']) {
    const res = await rawGet(path);
    t.regex(res.headers['content-security-policy'] as string, /frame-ancestors 'self'/, `${path}: framing is refused by CSP`);
    t.like(res.headers, { ...everywhere, 'cross-origin-opener-policy': 'same-origin', 'x-dns-prefetch-control': 'off' }, path);
    t.truthy(res.headers['x-enclave-site'], path);
  }
  t.regex(
    (await rawGet('/images/diagram.svg')).headers['content-security-policy'] as string,
    /^default-src 'self'/,
    'an SVG opened on its own runs no inline script',
  );
  // Files other pages load: whether other origins may embed them; no page-only headers.
  for (const path of ['/_assets/logo.png', `/${Object.keys(files).find((f) => f.endsWith('.css'))}`]) {
    const res = await rawGet(path);
    t.is(res.status, 200, path);
    t.like(res.headers, { ...everywhere, 'cross-origin-resource-policy': 'same-origin' }, path);
    for (const pageOnly of ['content-security-policy', 'cross-origin-opener-policy', 'x-dns-prefetch-control', 'x-enclave-site'])
      t.is(res.headers[pageOnly], undefined, `${path}: no ${pageOnly}`);
  }
  // A page declaring its referrer and DNS-prefetch policies in its head gets no header repeating
  // them; the same text in its body declares nothing, so the headers stay.
  const declared = await rawGet('/declared');
  t.is(declared.headers['referrer-policy'], undefined);
  t.is(declared.headers['x-dns-prefetch-control'], undefined);
  t.like(declared.headers, { 'x-content-type-options': 'nosniff', 'cross-origin-opener-policy': 'same-origin' });
  t.like((await rawGet('/in-body')).headers, { 'referrer-policy': 'no-referrer', 'x-dns-prefetch-control': 'off' });
  // Ranges are advertised on files worth resuming, not on pages (both answer them).
  t.is((await rawGet('/_assets/logo.png')).headers['accept-ranges'], 'bytes');
  t.is((await rawGet('/')).headers['accept-ranges'], undefined);
  t.is((await rawGet('/', { Range: 'bytes=0-3' })).status, 206);
  for (const path of ['/', '/_assets/logo.png'])
    for (const retired of ['x-frame-options', 'x-xss-protection', 'x-download-options', 'x-permitted-cross-domain-policies'])
      t.is((await rawGet(path)).headers[retired], undefined, `${path}: no ${retired}`);
});

test("CSP: only a page the manifest lists with the API playground may connect to another origin, its spec's server", async (t) => {
  const api = (await rawGet('/api/try')).headers['content-security-policy'] as string;
  t.true(api.includes("connect-src 'self' https://api.example.com;"), api);
  t.is(effectiveSource(api, 'script-src'), "'self'", 'scripts still only from the bundle');
  const plain = (await rawGet('/guides/start')).headers['content-security-policy'] as string;
  t.is(effectiveSource(plain, 'connect-src'), "'self'", plain);
});

test('traversal, encodings, NUL, backslashes, dotfiles and metadata never escape the version directory and never 500', async (t) => {
  const attempts = [
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/..%2f..%2f..%2fdeployments.json',
    '/guides/..%2f..%2f..%2f..%2fdeployments.json',
    '/guides%2f..%2f..%2fmanifest.json',
    '/..\\..\\deployments.json',
    '/%5c..%5c..%5cdeployments.json',
    '/guides/start%00.html',
    '/%00',
    '/%zz',
    '/%E0%A4%A',
    '/.hidden',
    '/guides/.hidden',
    '/%2ehidden',
    '/_enclave/report.json',
    '/%5fenclave/report.json',
    '/_enclave%2freport.json',
    '/./index.html',
    '//etc/passwd',
    '/guides//start',
    '/manifest.json',
    '/extras.json',
    '/encoded/index.html.br',
    '/files/index.html',
    '/_assets/',
    '/guides/start.html/',
  ];
  for (const path of attempts) {
    const res = await rawGet(path);
    t.true([400, 404].includes(res.status), `${path} → ${res.status}`);
    t.false(/root:|schemaVersion|"files"|secret dotfile|"expected"/.test(res.body.toString('latin1')), `${path} leaked content`);
  }
  t.false(
    app.logs.some((l) => l.level >= 50),
    'no request failed internally',
  );
});

/** The sources a CSP allows for one fetch directive: its own list, else default-src's (the browser's fallback). */
function effectiveSource(csp: string, directive: string): string | undefined {
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name, sources.join(' ')] as const;
    }),
  );
  const fallback = directive === 'worker-src' ? (directives.get('child-src') ?? directives.get('script-src')) : directives.get('child-src');
  return (
    directives.get(directive) ?? (['frame-src', 'worker-src'].includes(directive) ? fallback : undefined) ?? directives.get('default-src')
  );
}
