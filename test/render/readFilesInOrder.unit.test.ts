import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFilesInOrder, SourceReadError } from '../../src/render/source/readFilesInOrder.js';

test('files are handed over in the given order, whatever their sizes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-read-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Larger files first, so later (smaller) reads finish before earlier ones.
  const names = Array.from({ length: 60 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
  await Promise.all(names.map((n, i) => writeFile(join(dir, n), `${n}:${'x'.repeat((60 - i) * 2000)}`)));
  const seen: string[] = [];
  await readFilesInOrder(dir, names, (rel, data) => {
    t.true(data.toString().startsWith(`${rel}:`), rel);
    seen.push(rel);
  });
  t.deepEqual(seen, names);
});

test('a missing file rejects in its turn, named relative to the folder and never by its host path', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-read-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.md'), 'a');
  const seen: string[] = [];
  const err = await t.throwsAsync(
    readFilesInOrder(dir, ['a.md', 'gone/b.md', 'a.md'], (rel) => void seen.push(rel)),
    { instanceOf: SourceReadError },
  );
  t.deepEqual(seen, ['a.md'], 'files before the failure were consumed, none after');
  t.is(err.file, 'gone/b.md');
  t.is(err.code, 'ENOENT');
  t.false(err.message.includes(dir));
});

test('large files come through whole, and a long read gives the event loop turns', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-read-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const big = Buffer.alloc(3 * 1024 * 1024, 'b');
  await writeFile(join(dir, 'big.bin'), big);
  const names = Array.from({ length: 300 }, (_, i) => `p${i}.md`);
  await Promise.all(names.map((n) => writeFile(join(dir, n), n)));
  // Count event-loop turns taken while the files are read: a server hashing a site must keep answering.
  let turns = 0;
  let reading = true;
  const tick = () => {
    turns++;
    if (reading) setImmediate(tick);
  };
  setImmediate(tick);
  const got = new Map<string, Buffer>();
  await readFilesInOrder(dir, ['big.bin', ...names], (rel, data) => void got.set(rel, data));
  reading = false;
  t.true(got.get('big.bin')!.equals(big), 'the 3 MB file is intact');
  t.is(got.get('p299.md')!.toString(), 'p299.md');
  t.true(turns >= 4, `${turns} turns of the event loop during the read`);
});
