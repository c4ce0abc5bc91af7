import test from 'ava';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scanSegment } from '../../src/platform/store/scanSegment.js';
import { makeTempDir } from '../helpers/testAppliance.js';

/** What scanSegment must report, worked out the slow way: every line decoded on its own. */
function expectedLines(bytes: Buffer): { text: string; offset: number; length: number }[] {
  const lines = [];
  let start = 0;
  for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, start)) {
    lines.push({ text: bytes.toString('utf8', start, nl), offset: start, length: nl + 1 - start });
    start = nl + 1;
  }
  return lines;
}

test('lines across 4 MB chunk boundaries, multi-byte text, a line longer than a chunk and a torn tail keep their byte offsets', async (t) => {
  const dir = await makeTempDir('enclave-scan-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const parts: Buffer[] = [];
  // Lines of many lengths, so some newline and some multi-byte character land on each chunk edge.
  for (let i = 0; parts.reduce((n, p) => n + p.length, 0) < 9.5 * 2 ** 20; i++) {
    parts.push(Buffer.from(`{"n":${i},"comment":"${'é✓😀 '.repeat(i % 97)}${'x'.repeat(i % 13)}"}\n`));
    if (i === 20_000) parts.push(Buffer.from(`{"long":"${'ü'.repeat(2.5 * 2 ** 20)}"}\n`)); // 5 MB: spans a whole chunk
  }
  parts.push(Buffer.from([0xe2, 0x0a])); // a broken character right before a newline
  const torn = Buffer.from('{"n":"cut sho');
  const whole = Buffer.concat(parts);
  const path = join(dir, 'segment.jsonl');
  await writeFile(path, Buffer.concat([whole, torn]));

  const seen: { text: string; offset: number; length: number }[] = [];
  const scan = await scanSegment(path, (text, offset, length) => seen.push({ text, offset, length }));
  const expected = expectedLines(whole);
  t.is(seen.length, expected.length);
  const firstDifference = seen.findIndex(
    (line, i) => line.text !== expected[i].text || line.offset !== expected[i].offset || line.length !== expected[i].length,
  );
  t.is(firstDifference, -1, firstDifference >= 0 ? `line ${firstDifference} differs` : '');
  t.deepEqual(scan, { completeBytes: whole.length, tornBytes: torn.length });
});

test('a file that ends cleanly has no torn bytes, and an empty one no lines', async (t) => {
  const dir = await makeTempDir('enclave-scan-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.jsonl'), '{"a":1}\n{"b":2}\n');
  await writeFile(join(dir, 'empty.jsonl'), '');
  const lines: string[] = [];
  t.deepEqual(await scanSegment(join(dir, 'a.jsonl'), (text) => lines.push(text)), { completeBytes: 16, tornBytes: 0 });
  t.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  t.deepEqual(await scanSegment(join(dir, 'empty.jsonl'), () => t.fail()), { completeBytes: 0, tornBytes: 0 });
});
