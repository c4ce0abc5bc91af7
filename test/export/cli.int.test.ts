import test from 'ava';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runExport } from '../../src/cli/export.js';
import { captureCliIo } from '../helpers/captureCliIo.js';
import { sameBytes } from '../helpers/sameBytes.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { download, makeTinySite, sha256 } from './exportTestHelpers.js';

function envFor(app: TestAppliance): NodeJS.ProcessEnv {
  return { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key };
}

test('export start --wait (plain progress lines), status, bundle, download with sha256 check', async (t) => {
  const source = await makeTinySite(4);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());

  const started = captureCliIo(envFor(app));
  t.is(await runExport(['start', '--domain', 'tiny.test', '--version', 'cli-1', '--wait'], started.io), 0, started.err());
  const job = JSON.parse(started.out());
  t.like(job, { status: 'completed', progress: 100, pageCount: 4, version: 'cli-1' });
  t.regex(started.err(), new RegExp(`${job.jobId} (queued|running) \\d+%`));
  t.regex(started.err(), new RegExp(`${job.jobId} completed 100% \\(4 pages\\)`));
  t.false(started.err().includes('\r'), 'no carriage returns when stderr is not a terminal');

  const status = captureCliIo(envFor(app));
  t.is(await runExport(['status', job.jobId], status.io), 0);
  t.is(JSON.parse(status.out()).jobId, job.jobId);

  const bundle = captureCliIo(envFor(app));
  t.is(await runExport(['bundle', job.jobId], bundle.io), 0);
  const link = JSON.parse(bundle.out());
  t.true(link.bundleUrl.includes('sig='));

  const dir = await makeTempDir();
  const out = join(dir, 'site.zip');
  const got = captureCliIo(envFor(app));
  t.is(await runExport(['download', job.jobId, '--out', out], got.io), 0, got.err());
  const bytes = await readFile(out);
  t.is(sha256(bytes), link.sha256);
  t.deepEqual(JSON.parse(got.out()), { file: out, sizeBytes: link.sizeBytes, sha256: link.sha256 });
  t.regex(got.err(), /^download [\d.]+ (B|KiB|MiB) \/ [\d.]+ (B|KiB|MiB) 100% [\d.]+ (B|KiB|MiB)\/s$/m, 'bytes and rate as plain lines');
  t.false(got.err().includes('\r'), 'no carriage returns when stderr is not a terminal');
  await t.throwsAsync(stat(`${out}.part`), undefined, 'the partial file is renamed away');
});

test('export download resumes a partial file with Range, and refuses (exit 1) when the result does not match the sha256', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());
  const started = captureCliIo(envFor(app));
  t.is(await runExport(['start', '--domain', 'tiny.test', '--wait'], started.io), 0);
  const { jobId } = JSON.parse(started.out());
  const linkRes = await app.api(`/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST' });
  const real = await download((await linkRes.json()).bundleUrl);
  const dir = await makeTempDir();

  // A correct prefix is continued, not fetched again.
  const good = join(dir, 'good.zip');
  await writeFile(`${good}.part`, real.subarray(0, 1000));
  const resumed = captureCliIo(envFor(app));
  t.is(await runExport(['download', jobId, '--out', good], resumed.io), 0, resumed.err());
  t.regex(resumed.err(), /resuming at byte 1000/);
  sameBytes(t, await readFile(good), real);

  // A prefix with wrong bytes: the resumed file can't match the announced hash → exit 1, no file.
  const bad = join(dir, 'bad.zip');
  const corrupt = Buffer.from(real.subarray(0, 1000));
  corrupt[500] ^= 0xff;
  await writeFile(`${bad}.part`, corrupt);
  const refused = captureCliIo(envFor(app));
  t.is(await runExport(['download', jobId, '--out', bad], refused.io), 1);
  t.regex(refused.err(), /sha256 mismatch/);
  await t.throwsAsync(stat(bad));
  await t.throwsAsync(stat(`${bad}.part`), undefined, 'the corrupt partial is dropped');
});

test('export CLI: usage errors exit 2, API refusals 3, a failed job 1, an unreachable server 4; TTY progress bar redraws in place', async (t) => {
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'gone.test', source: '/nonexistent/enclave-docs' }] } });
  t.teardown(() => app.close());
  const run = async (args: string[], env = envFor(app), tty = false) => {
    const c = captureCliIo(env, tty);
    return { code: await runExport(args, c.io), ...c };
  };
  t.is((await run([])).code, 2);
  t.is((await run(['start'])).code, 2);
  t.is((await run(['status'])).code, 2);
  t.is((await run(['frobnicate', 'x'])).code, 2);
  t.is((await run(['status', 'se_0000000000000000'])).code, 3);
  t.is((await run(['start', '--domain', 'unknown.test'])).code, 3);
  t.is((await run(['status', 'x'], { ENCLAVE_URL: 'http://127.0.0.1:9', ENCLAVE_ADMIN_KEY: app.key })).code, 4);
  const failed = await run(['start', '--domain', 'gone.test', '--wait'], envFor(app), true);
  t.is(failed.code, 1);
  t.regex(failed.err(), /failed: docs source directory not found/);
  t.regex(failed.err(), /\r\[#*\.*\] +\d+%/);
  t.is((await run(['bundle', JSON.parse(failed.out()).jobId])).code, 3, 'no bundle for a failed job (409)');
});
