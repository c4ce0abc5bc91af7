import { rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import test from 'ava';
import { transferMeter } from '../../src/cli/transferMeter.js';
import { runEnclave } from '../helpers/runEnclave.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { writeSite } from './exportTestHelpers.js';

test('export start --wait and export status print failed pages and warnings and exit 1 when pages failed', async (t) => {
  const source = await writeSite(t, {
    'docs.json': JSON.stringify({ name: 'F', navigation: { groups: [{ group: 'G', pages: ['index', 'bad'] }] } }),
    'index.mdx': '# Home\n\n[gone](/missing-page)\n',
    'bad.mdx': '<Card title="x">\n\nunclosed\n',
  });
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'failing.test', source }] } });
  t.teardown(() => app.close());
  const env = { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key };
  const run = await runEnclave(['export', 'start', '--domain', 'failing.test', '--wait'], env);
  t.is(run.code, 1, run.stderr);
  t.regex(run.stderr, /1 of 2 page\(s\) failed to render/);
  t.regex(run.stderr, /^ {2}\/bad: .+$/m);
  t.regex(run.stderr, /brokenLink \(1\):\n {4}\/index: broken link \/missing-page/); // grouped by kind
  const job = JSON.parse(run.stdout);
  t.is(job.status, 'completed');
  const status = await runEnclave(['export', 'status', job.jobId], env);
  t.is(status.code, 1);
  t.regex(status.stderr, /\/bad: /);
});

test('doctor checks every configured site source: missing docs.json and unparsable docs.json are failures', async (t) => {
  const good = await writeSite(t, { 'docs.json': '{"name":"ok"}', 'index.mdx': '# Hi\n' });
  const noConfig = await writeSite(t, { 'index.mdx': '# Hi\n' });
  const badJson = await writeSite(t, { 'mint.json': '{nope' });
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const sites = [
    { domain: 'good.test', source: good },
    { domain: 'noconfig.test', source: noConfig },
    { domain: 'badjson.test', source: badJson },
  ];
  const run = await runEnclave(['doctor'], { ENCLAVE_DATA_DIR: dataDir, ENCLAVE_SITES: JSON.stringify(sites) });
  t.is(run.code, 1);
  t.regex(run.stdout, /ok {4}site good\.test: /);
  t.regex(run.stdout, /FAIL {2}site noconfig\.test: .*no docs\.json or mint\.json/);
  t.regex(run.stdout, /FAIL {2}site badjson\.test: .*mint\.json is not valid JSON/);
});

async function meterRun(tty: boolean, chunks: number[]): Promise<string> {
  const err = Object.assign(new PassThrough(), { isTTY: tty });
  let text = '';
  err.setEncoding('utf8').on('data', (c: string) => (text += c));
  let clock = 0;
  const meter = transferMeter(
    { out: new PassThrough(), err, env: {} },
    { total: chunks.reduce((a, b) => a + b, 0), start: 0, now: () => (clock += 250) },
  );
  meter.resume();
  for (const n of chunks) meter.write(Buffer.alloc(n));
  meter.end();
  await finished(meter);
  await new Promise((r) => setImmediate(r));
  return text;
}

test('the download meter draws a bar with bytes and rate on a terminal and plain lines (no \\r) otherwise', async (t) => {
  const chunks = Array.from({ length: 8 }, () => 256 * 1024);
  const tty = await meterRun(true, chunks);
  t.true(tty.includes('\r['));
  t.regex(tty, /2\.0 MiB \/ 2\.0 MiB 100% [\d.]+ (KiB|MiB)\/s/);
  const plain = await meterRun(false, chunks);
  t.false(plain.includes('\r'));
  t.regex(plain, /^download 512\.0 KiB \/ 2\.0 MiB {2}25% /m);
  t.regex(plain, /^download 2\.0 MiB \/ 2\.0 MiB 100% /m);
});
