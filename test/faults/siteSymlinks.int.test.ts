import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { siteDirs } from '../../src/features/deployments/versionLayout.js';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';

test('a symlinked directory inside a site version is never followed, for cached, streamed and precompressed files, before and after a restart', async (t) => {
  const outside = await makeTempDir('enclave-symlink-site-');
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  let app = await startTestAppliance({ dataDir });
  t.teardown(() => app.stop());
  // A page (small: kept in memory after its first read) and a file large enough to be streamed.
  const files = makeSiteFiles('v1', { 'guides/big.bin': randomBytes(400 * 1024) });
  await writeBundle(join(outside, 'v1.zip'), 'v1', { files });
  t.is((await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(outside, 'v1.zip') } })).status, 200);
  const { active } = (await (await app.api('/v1/deployments')).json()) as { active: { id: string } };
  const versionDir = join(siteDirs(dataDir).versions, active.id);

  // Someone with access to the data directory swaps `guides/` (and its precompressed twin) for
  // symlinks to look-alike trees elsewhere: same names, same sizes, other bytes.
  for (const part of ['files', 'encoded']) {
    const real = join(versionDir, part, 'guides');
    const fake = join(outside, `fake-${part}`);
    await mkdir(fake);
    for (const name of await readdir(real)) {
      const size = (await readFile(join(real, name))).length;
      await writeFile(join(fake, name), Buffer.alloc(size, 'X'));
    }
    await rename(real, `${real}.moved`);
    await symlink(fake, real);
  }

  const check = async (when: string) => {
    for (const [path, encoding] of [
      ['/guides/start', 'identity'],
      ['/guides/start', 'gzip'],
      ['/guides/start', 'br'],
      ['/guides/big.bin', 'identity'],
      ['/guides/', 'identity'],
    ] as const) {
      const res = await fetch(`${app.url}${path}`, { headers: { 'Accept-Encoding': encoding } });
      const body = Buffer.from(await res.arrayBuffer());
      t.is(res.status, 404, `${when}: ${path} (${encoding}) is not served through the symlink`);
      t.false(body.includes('XXXXXXXX'), `${when}: no byte from outside the version`);
    }
    const other = await fetch(`${app.url}/reference`);
    t.is(other.status, 200, `${when}: files outside the symlinked directory are still served`);
    t.regex(await other.text(), /content="v1"/);
  };
  await check('while running');
  await app.stop();
  app = await startTestAppliance({ dataDir });
  await check('after a restart');
});
