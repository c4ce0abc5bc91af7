import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { declaresHeadPolicies } from '../../src/bundle/install/precompressSiteFiles.js';
import { renderDocs } from './renderFixture.js';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

test('the embedded sample site renders cleanly: all pages, OpenAPI pages, no unknown components or broken links', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-sample-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const src = join(root, 'src');
  await cp(join(process.cwd(), 'examples/sample-docs'), src, { recursive: true });
  const { out, result } = await renderDocs(src);
  const r = result.report;
  t.deepEqual(r.pages.failed, []);
  t.is(r.pages.rendered, r.pages.expected);
  t.true(r.pages.expected >= 14 && r.pages.expected <= 20, `page count ${r.pages.expected}`);
  t.deepEqual(r.unknownComponents, {});
  t.deepEqual(r.brokenLinks, []);
  t.deepEqual(r.missingImages, []);
  t.deepEqual(result.fallbackPages, []);
  const pages = JSON.parse(await readFile(join(out, '_enclave/manifest.json'), 'utf8')).pages.map((p: { path: string }) => p.path);
  t.true(pages.includes('api-reference/static-export/start-an-export'), 'operation entries become generated pages');
  t.true(pages.includes('api-reference/static-export/get-an-export-job'));
  t.true(pages.includes('troubleshooting'), 'page outside the navigation is published');
  const api = await readFile(join(out, 'api-reference/static-export/start-an-export.html'), 'utf8');
  t.regex(api, /<h1>Start an export<\/h1>/);
  t.regex(api, /\/v1\/static-export\/jobs/);
  t.regex(await readFile(join(out, 'start.html'), 'utf8'), /url=quickstart\.html/);
  const bundles = await readFile(join(out, 'concepts/bundles.html'), 'utf8');
  t.regex(bundles, /src="\.\.\/images\/bundle-flow\.svg"/);
  const versions = await readFile(join(out, 'concepts/versions.html'), 'utf8');
  t.regex(versions, /katex/, 'math renders at build time');
  // Pages and redirect pages declare their referrer and DNS-prefetch policies in the head, so they
  // hold on any host (and the appliance leaves those headers off them).
  for (const file of ['index.html', 'quickstart.html', 'start.html', '404.html', 'api-reference/static-export/start-an-export.html'])
    t.true(declaresHeadPolicies(await readFile(join(out, file))), `${file} declares its policies in its head`);
});
