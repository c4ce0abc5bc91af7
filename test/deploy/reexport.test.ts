import test from 'ava';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/testAppliance.js';
import { startLoggedAppliance } from './helpers/loggedAppliance.js';

const DOMAIN = 'docs.reexport.internal';

async function writeDocs(dir: string, body: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'docs.json'), JSON.stringify({ name: 'Re-export', colors: { primary: '#2563EB' }, navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] } }));
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

  // createFeatures wires re-export to the export module, so the first run exports and activates.
  t.is(await app.features.deployments.runReexport(entry, now), 'activated');
  t.false(app.logs.some((l) => /not wired/.test(l.msg)));
  const guide = await fetch(`${app.url}/guide`);
  t.is(guide.status, 200);
  t.regex(await guide.text(), /First edition\./);
  const firstVersion = app.features.deployments.activeSite.current()!.version;

  let exports = 1;
  app.features.deployments.setReexporter(async (domain) => {
    exports++;
    return app.features.exports.exportAndBundle(domain);
  });
  t.is(await app.features.deployments.runReexport(entry, now), 'unchanged');
  t.is(exports, 1, 'an unchanged source is not exported again');

  await writeDocs(source, 'Second edition.');
  t.is(await app.features.deployments.runReexport({ ...entry, activate: false }, now), 'exported');
  t.is(exports, 2);
  t.is(app.features.deployments.activeSite.current()!.version, firstVersion, 'activate: false leaves the live site alone');
  t.regex(await (await fetch(`${app.url}/guide`)).text(), /First edition\./);

  await writeDocs(source, 'Third edition.');
  t.is(await app.features.deployments.runReexport(entry, now), 'activated');
  t.regex(await (await fetch(`${app.url}/guide`)).text(), /Third edition\./);
  const status = await (await app.api('/v1/deployments')).json();
  t.is(status.active.origin, 'reexport');
  t.is(await app.features.deployments.runReexport({ ...entry, domain: 'unknown.internal' }, now), 'skipped');
});
