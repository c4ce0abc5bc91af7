import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMPLE_DOMAIN } from '../../src/domain/bootstrap/sampleDocs.js';
import { startLoggedAppliance } from './helpers/loggedAppliance.js';

test('a real export of the sample docs verifies, activates and serves with all its assets under the site CSP', async (t) => {
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const built = await app.modules.exports.exportAndBundle(SAMPLE_DOMAIN);
  const { version } = await app.modules.deployments.activateBundleFile(built.zipPath, { source: `export ${built.jobId}` });
  t.is(version, built.version);
  const current = app.modules.deployments.activeSite.current();
  t.is(current?.domain, SAMPLE_DOMAIN);
  t.true(current!.pagePaths.has('/'));

  const manifest = JSON.parse(await readFile(join(app.dataDir, 'site', 'versions', (await (await app.api('/v1/deployments')).json()).active.id, 'manifest.json'), 'utf8'));
  const pages = manifest.pages.slice(0, 10) as { path: string; file: string }[];
  const checked = new Set<string>();
  for (const page of pages) {
    const res = await fetch(`${app.url}${page.path}`);
    t.is(res.status, 200, page.path);
    const html = await res.text();
    t.regex(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    // Every local script, stylesheet and image the page loads is served.
    for (const [, ref] of html.matchAll(/(?:src|href)="([^"#?]+\.(?:css|js|mjs|svg|png|woff2?))"/g)) {
      const url = new URL(ref, `${app.url}${page.path}`);
      if (url.origin !== app.url || checked.has(url.pathname)) continue;
      checked.add(url.pathname);
      const asset = await fetch(url);
      t.is(asset.status, 200, `${url.pathname} from ${page.path}`);
      await asset.arrayBuffer();
    }
  }
  t.true(checked.size > 0, 'pages reference assets');
  const missing = await fetch(`${app.url}/definitely/not/here`);
  t.is(missing.status, 404);
});
