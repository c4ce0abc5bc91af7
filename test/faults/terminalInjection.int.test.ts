import test from 'ava';
import { rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BundleRefusedError } from '../../src/bundle/BundleRefusedError.js';
import { extractBundle } from '../../src/bundle/install/extractBundle.js';
import { runCli } from '../../src/cli/enclave.js';
import { escapeControls } from '../../src/cli/escapeControls.js';
import { captureCliIo } from '../helpers/captureCliIo.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { buildRawZip, makeManifest, makeSiteFiles } from '../deploy/helpers/testBundles.js';

// Strings a terminal acts on: a screen clear, an OSC 8 hyperlink and an OSC 52 clipboard
// write, a carriage return that overwrites the line, a C1 CSI, and a bidi override.
const HOSTILE = [
  'v1\x1b[2J\x1b[H',
  'docs\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07',
  'x\x1b]52;c;ZWNobyBwd25lZA==\x07',
  'ok\rDEPLOYED',
  'a\u009b31mred',
  'name\u202egnp.exe',
];
/** Any raw control character a terminal could interpret. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const limits = { maxBundleBytes: 64 * 1024 * 1024, maxEntries: 1000, maxExtractedBytes: 256 * 1024 * 1024, maxCompressionRatio: 200 };

for (const [field, value] of [
  ['version', HOSTILE[0]],
  ['domain', HOSTILE[1]],
  ['version', HOSTILE[4]],
  ['domain', 'docs.example:8080'],
  ['version', 'v1 beta'],
] as const) {
  test(`a bundle manifest whose ${field} is ${escapeControls(JSON.stringify(value))} is refused on the way in`, async (t) => {
    const dir = await makeTempDir('enclave-tty-');
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const files = makeSiteFiles('v1');
    const entries = Object.entries(files).map(([name, data]) => ({ name, data }));
    entries.push({ name: '_enclave/manifest.json', data: makeManifest(files, { version: 'v1', [field]: value }) });
    const zip = join(dir, 'bundle.zip');
    await writeFile(zip, buildRawZip(entries));
    const err = await t.throwsAsync(extractBundle(zip, join(dir, 'out', 'files'), limits, null), { instanceOf: BundleRefusedError });
    t.regex(
      err!.reason,
      field === 'domain'
        ? /malformed: domain: domain must be a bare host name/
        : /malformed: version: version must be 1–64 letters, digits, dots, dashes or underscores/,
    );
    t.false(RAW_CONTROL.test(err!.reason), 'the refusal does not echo the escape either');
  });
}

/** A stand-in admin API answering every GET with `body`: the CLI must not trust what a server says. */
async function hostileServer(t: import('ava').ExecutionContext, body: unknown): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const deployment = (i: number, status: string) => ({
  id: `dp_${HOSTILE[(i + 2) % HOSTILE.length]}`,
  status,
  version: HOSTILE[i % HOSTILE.length],
  domain: HOSTILE[(i + 1) % HOSTILE.length],
  source: HOSTILE[(i + 3) % HOSTILE.length],
  activatedAt: HOSTILE[(i + 4) % HOSTILE.length],
  error: HOSTILE[(i + 5) % HOSTILE.length],
});

test('enclave deploy --status prints escapes from the server as visible text, never raw', async (t) => {
  const state = {
    active: deployment(0, 'active'),
    kept: [deployment(1, 'kept'), deployment(2, 'kept')],
    running: deployment(3, 'running'),
    lastError: { at: HOSTILE[4], reason: HOSTILE[5] },
  };
  const url = await hostileServer(t, state);
  const env = { ENCLAVE_URL: url, ENCLAVE_ADMIN_KEY: `enc_${'a'.repeat(46)}`, ENCLAVE_PROJECT_ID: 'proj_0123456789abcdef' };
  const human = captureCliIo(env);
  t.is(await runCli(['deploy', '--status'], human.io), 0, human.err());
  t.false(RAW_CONTROL.test(human.out()), JSON.stringify(human.out()));
  t.true(human.out().includes('v1\\u001b[2J'), 'the escape is shown, not dropped');
  t.true(human.out().includes('\\u009b31mred'));
  t.true(human.out().includes('name\\u202egnp.exe'));
  t.true(human.out().includes('ok\\u000dDEPLOYED'));

  const json = captureCliIo(env);
  t.is(await runCli(['deploy', '--status', '--json'], json.io), 0);
  t.false(RAW_CONTROL.test(json.out().replace(/\n/g, '')), 'no raw control in JSON output');
  t.deepEqual(JSON.parse(json.out()), state, 'the JSON still parses to exactly what the server sent');
});

test('API error messages and failed-job reasons from the server are escaped too', async (t) => {
  const server = createServer((_req, res) =>
    res
      .writeHead(400, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ error: `bad\x1b]0;owned\x07 request`, details: [{ message: 'x\x1b[31my' }] })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const env = {
    ENCLAVE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ENCLAVE_ADMIN_KEY: `enc_${'a'.repeat(46)}`,
    ENCLAVE_PROJECT_ID: 'proj_0123456789abcdef',
  };
  for (const argv of [
    ['deploy', '--status'],
    ['agent', 'get', 'aj_0123456789abcdef'],
    ['export', 'status', 'se_0123456789abcdef'],
    ['feedback', 'list'],
  ]) {
    const run = captureCliIo(env);
    t.is(await runCli(argv, run.io), 3, `${argv.join(' ')}: ${run.err()}`);
    t.false(RAW_CONTROL.test(run.err().replace(/\n/g, '')), `${argv.join(' ')}: ${JSON.stringify(run.err())}`);
    t.true(run.err().includes('bad\\u001b]0;owned\\u0007 request'), run.err());
    t.true(run.err().includes('\n  - x\\u001b[31my'), 'details stay one per line');
  }
});

test('escapeControls: controls become \\uXXXX; plain text, accents and emoji are untouched', (t) => {
  t.is(escapeControls('café ✓ 🚀 v1.2-rc_3'), 'café ✓ 🚀 v1.2-rc_3');
  t.is(escapeControls('a\x1b[0mb\x07c\x7fd\u0085e'), 'a\\u001b[0mb\\u0007c\\u007fd\\u0085e');
  t.is(escapeControls('two\nlines\ttab'), 'two\\u000alines\\u0009tab');
  t.is(escapeControls('two\nlines', { keepNewlines: true }), 'two\nlines');
});
