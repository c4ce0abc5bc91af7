import test from 'ava';
import { join } from 'node:path';
import { renderFilesAndZip } from '../render/renderFixture.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { writeBundle } from './helpers/testBundles.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'https://api.example.com/v1' }, { url: 'http://{host}:8080', variables: { host: { default: 'pets.internal' } } }],
  paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'ok' } } } } },
};

const connectSrc = (csp: string | null) => /(?:^|;\s*)connect-src ([^;]*)/.exec(csp ?? '')?.[1] ?? null;

test('page policies come from the manifest: only real "Try it" pages may connect out, to their spec\'s servers and the allowed origins, and run no custom script', async (t) => {
  const { src, zip } = await renderFilesAndZip(t, {
    'docs.json': JSON.stringify({ name: 'Pets', navigation: { pages: ['index', 'lookalike', 'api/list'] } }),
    'openapi.json': JSON.stringify(SPEC),
    'api/list.mdx': '---\nopenapi: GET /pets\n---\n',
    'index.mdx': '# Home\n\nWelcome.\n',
    // Page text that carries the playground's attribute without being a playground.
    'lookalike.mdx': '# Lookalike\n\n<div data-enclave-try="x">not a playground</div>\n',
    'custom.js': 'window.customRan = true;\n',
  });
  const app = await startTestAppliance({ overrides: { staticExport: { tryItOrigins: ['https://extra.example'] } } });
  t.teardown(() => app.close());
  await app.control.sites.upsert({
    domain: 'docs.example.com',
    source: src,
    ref: null,
    projectId: app.projectId,
    createdAt: new Date().toISOString(),
  });
  await app.features.deployments.activateBundleFile(zip, { source: 'test' });

  const get = async (path: string) => {
    const res = await fetch(`${app.url}${path}`);
    t.is(res.status, 200, path);
    return { csp: res.headers.get('content-security-policy'), html: await res.text() };
  };
  const home = await get('/');
  const lookalike = await get('/lookalike');
  const api = await get('/api/list');

  t.true(lookalike.html.includes(' data-enclave-try='), 'the look-alike page carries the attribute');
  t.is(connectSrc(lookalike.csp), null, 'a page whose bytes merely contain the mark keeps connect-src at default-src');
  t.is(connectSrc(home.csp), null);
  t.is(
    connectSrc(api.csp),
    "'self' https://api.example.com http://pets.internal:8080 https://extra.example",
    "the spec's servers (variables filled) and the operator's origins, no scheme-wide source",
  );
  t.regex(home.html, /<script src="custom\.js"><\/script>/, 'custom scripts on ordinary pages');
  t.false(api.html.includes('custom.js'), 'no custom script on the "Try it" page');
  t.regex(api.html, /playground\.[0-9a-f]+\.js|openapi\/playground/, 'the playground script itself is there');
});

test('a manifest naming something other than an origin for "Try it" gets none of it into the header', async (t) => {
  const dir = await makeTempDir('enclave-tryit-');
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const connect = [
    'https://ok.example',
    "https://evil.example; script-src 'unsafe-inline'",
    'https://a.example/path',
    '*',
    'http:',
    'data:',
  ];
  await writeBundle(join(dir, 'v1.zip'), 'v1', {
    manifestFields: {
      pages: [
        { path: '/', title: 'Home', file: 'index.html' },
        { path: '/reference', title: 'Reference', file: 'reference.html', tryIt: { connect } },
      ],
    },
  });
  t.is((await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'v1.zip') } })).status, 200);
  const csp = (await fetch(`${app.url}/reference`)).headers.get('content-security-policy');
  t.is(connectSrc(csp), "'self' https://ok.example");
  t.false(csp?.includes('evil') ?? true, 'nothing of the hostile value reaches the header');
  t.is(connectSrc((await fetch(`${app.url}/`)).headers.get('content-security-policy')), null);
});
