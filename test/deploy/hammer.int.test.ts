import test from 'ava';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, startLoggedAppliance } from './helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle, type SiteFiles } from './helpers/testBundles.js';

/** Enough extra pages that extraction and precompression take a noticeable while. */
function bulk(version: string): SiteFiles {
  const extra: SiteFiles = {};
  for (let i = 0; i < 300; i++)
    extra[`bulk/page-${i}.html`] = Buffer.from(
      `<!doctype html><p>${version} ${i}</p>${`<p>filler text ${i} for compression work</p>`.repeat(400)}`,
    );
  return makeSiteFiles(version, extra);
}

test('requests hammering the site during an activation see no error and never a mix of two versions', async (t) => {
  const dir = await makeTempDir('enclave-hammer-');
  const v1 = join(dir, 'v1.zip');
  const v2 = join(dir, 'v2.zip');
  await writeBundle(v1, 'v1', { files: bulk('v1') });
  await writeBundle(v2, 'v2', { files: bulk('v2') });
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  t.is((await deployAndWait(app, { bundleUrl: v1 })).status, 'active');

  const errors: string[] = [];
  const seen = new Map<string, number>();
  let requests = 0;
  let stop = false;
  // Linearizability: once any response has shown v2, no request started later may show v1.
  let firstV2SeenAt = Infinity;
  const pageLog: { startedAt: number; version: string }[] = [];
  const pages = ['/', '/guides/start', '/guides/', '/reference', '/guides/start.html'];
  const worker = async (n: number) => {
    for (let i = 0; !stop && i < 100_000; i++) {
      const path = pages[(n + i) % pages.length];
      const startedAt = Date.now();
      const res = await fetch(`${app.url}${path}`);
      requests++;
      const html = await res.text();
      if (res.status !== 200) {
        errors.push(`${path} → ${res.status}`);
        continue;
      }
      const version = /name="enclave-version" content="([^"]+)"/.exec(html)?.[1] ?? 'none';
      seen.set(version, (seen.get(version) ?? 0) + 1);
      pageLog.push({ startedAt, version });
      if (version === 'v2') firstV2SeenAt = Math.min(firstV2SeenAt, Date.now());
      // Every asset the page names must exist and belong to the page's own version.
      for (const [, href] of html.matchAll(/(?:href|src)="([^"]+\.(?:css|js))"/g)) {
        const asset = await fetch(new URL(href, `${app.url}${path}`));
        requests++;
        const body = await asset.text();
        if (asset.status !== 200) errors.push(`${href} (from a ${version} page) → ${asset.status}`);
        else if (!body.includes(`version:${version}`)) errors.push(`${href} served another version than its ${version} page`);
      }
    }
  };
  const workers = Array.from({ length: 6 }, (_, n) => worker(n));
  try {
    await new Promise((r) => setTimeout(r, 200));
    const deployed = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: v2 } });
    t.true(deployed.status === 200 || deployed.status === 202);
    // The clients share this process with the server, so the activation may outlast the
    // API's 10 s wait; the record tells when it went live.
    const { id } = await deployed.json();
    for (let i = 0; i < 600; i++) {
      const record = await (await app.api(`/v1/deployments/${id}`)).json();
      if (record.status !== 'running') {
        t.is(record.status, 'active');
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    stop = true;
    await Promise.all(workers);
  }

  t.deepEqual(errors, []);
  t.deepEqual([...seen.keys()].sort(), ['v1', 'v2']);
  const stale = pageLog.filter((p) => p.startedAt > firstV2SeenAt && p.version !== 'v2');
  t.deepEqual(stale, [], 'a request started after v2 was first seen never sees the old version');
  t.true(requests > 100, `only ${requests} requests`);
  t.log(`${requests} requests, pages by version: ${JSON.stringify(Object.fromEntries(seen))}`);
});
