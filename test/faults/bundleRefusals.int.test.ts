import test from 'ava';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';

test('a bundle entry with a path segment over 255 bytes is refused naming the entry and the rule, and the live site is unchanged', async (t) => {
  const outside = await makeTempDir('enclave-long-names-');
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  await writeBundle(join(outside, 'v1.zip'), 'v1');
  t.is((await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(outside, 'v1.zip') } })).status, 200);

  // 256 ASCII bytes; and 130 two-byte characters: 260 bytes though only 130 characters.
  const cases = [`guides/${'a'.repeat(252)}.html`, `${'é'.repeat(130)}/page.html`];
  for (const name of cases) {
    const zip = join(outside, 'long.zip');
    await writeBundle(zip, 'v2', { files: makeSiteFiles('v2', { [name]: Buffer.from('<p>long</p>') }) });
    const res = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: zip } });
    const body = (await res.json()) as { error: string };
    t.is(res.status, 422, body.error);
    t.true(body.error.includes('unsafe entry name'), body.error);
    t.regex(body.error, /path segment of 25[6-9]|path segment of 260 bytes/, 'says how long the segment is');
    t.regex(body.error, /255-byte limit/, 'names the rule');
    t.notRegex(body.error, /internal error/);
    const record = (await (await app.api(`/v1/deployments/${(body as unknown as { deploymentId: string }).deploymentId}`)).json()) as {
      error: string;
    };
    t.regex(record.error, /255-byte limit/, 'the deployment record keeps the same reason');
  }
  t.regex(await (await fetch(`${app.url}/guides/start`)).text(), /content="v1"/);
});
