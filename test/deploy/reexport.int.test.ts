import test from 'ava';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/testAppliance.js';
import { getWithHost, startLoggedAppliance } from './helpers/loggedAppliance.js';

const DOMAIN = 'docs.reexport.internal';

async function writeDocs(dir: string, body: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Re-export',
      colors: { primary: '#2563EB' },
      navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] },
    }),
  );
  await writeFile(join(dir, 'index.mdx'), '---\ntitle: Home\n---\n\nWelcome.\n');
  await writeFile(join(dir, 'guide.mdx'), `---\ntitle: Guide\n---\n\n${body}\n`);
}

test('scheduled re-export: exports only when the source changed, activates when configured, leaves the site alone when not', async (t) => {
  const dir = await makeTempDir('enclave-reexport-');
  const source = join(dir, 'docs');
  await writeDocs(source, 'First edition.');
  const entry = { domain: DOMAIN, cron: '0 0 1 1 *', activate: true };
  const app = await startLoggedAppliance({ overrides: { sites: [{ domain: DOMAIN, source }], export: { reexport: [entry] } } });
  t.teardown(() => app.close());
  const now = new Date('2026-04-01T03:00:00.000Z');

  // createFeatures hands the export module the deployments' deploy port, so the first run exports
  // and activates, into the site's own deployments: its Host serves it; other hosts reach the (empty) default site.
  t.is(await app.features.exports.runReexport(entry, now), 'activated');
  const guide = await getWithHost(`${app.url}/guide`, DOMAIN);
  t.is(guide.status, 200);
  t.regex(guide.body, /First edition\./);
  t.is((await fetch(`${app.url}/guide`)).status, 503, 'the default site has nothing deployed');
  const firstVersion = app.features.deployments.activeSite.current(DOMAIN)!.version;

  const exportCount = () => app.features.exports.jobs.list().length;
  t.is(exportCount(), 1);
  t.is(await app.features.exports.runReexport(entry, now), 'unchanged');
  t.is(exportCount(), 1, 'an unchanged source is not exported again');

  await writeDocs(source, 'Second edition.');
  t.is(await app.features.exports.runReexport({ ...entry, activate: false }, now), 'exported');
  t.is(exportCount(), 2);
  t.is(app.features.deployments.activeSite.current(DOMAIN)!.version, firstVersion, 'activate: false leaves the live site alone');
  t.regex((await getWithHost(`${app.url}/guide`, DOMAIN)).body, /First edition\./);

  await writeDocs(source, 'Third edition.');
  t.is(await app.features.exports.runReexport(entry, now), 'activated');
  t.regex((await getWithHost(`${app.url}/guide`, DOMAIN)).body, /Third edition\./);
  const status = await (await app.api(`/v1/deployments?domain=${DOMAIN}`)).json();
  t.is(status.site, DOMAIN);
  t.is(status.active.origin, 'reexport');
  t.is(status.active.site, DOMAIN);
  t.is((await (await app.api('/v1/deployments')).json()).active, null, 'nothing went to the default site');
  t.is(await app.features.exports.runReexport({ ...entry, domain: 'unknown.internal' }, now), 'skipped');
});
