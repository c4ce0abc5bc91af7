import test from 'ava';
import { InOrderParts } from '../../src/render/output/InOrderParts.js';

const bytes = (s: string) => Buffer.from(s);
async function readAll(parts: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const part of parts) out += Buffer.from(part).toString();
  return out;
}

test('pieces given out of order are read in position order, and reading waits for the missing ones', async (t) => {
  const parts = new InOrderParts(4);
  const reading = readAll(parts);
  parts.put(2, [bytes('c')]);
  parts.put(1, []); // a position that contributes nothing (a failed page)
  await new Promise((resolve) => setImmediate(resolve));
  parts.put(3, [bytes('d1'), bytes('d2')]);
  parts.put(0, [bytes('a')]);
  parts.end();
  t.is(await reading, 'acd1d2');
});

test('a position never given fails the reading at end() instead of leaving it waiting', async (t) => {
  const parts = new InOrderParts(3);
  const reading = readAll(parts);
  parts.put(0, [bytes('a')]);
  parts.put(2, [bytes('c')]);
  parts.end();
  await t.throwsAsync(reading, { message: '2 of 3 parts never arrived' });
});

test('fail() ends the reading with the error', async (t) => {
  const parts = new InOrderParts(2);
  const reading = readAll(parts);
  parts.put(0, [bytes('a')]);
  parts.fail(new Error('page 2 broke the export'));
  await t.throwsAsync(reading, { message: 'page 2 broke the export' });
});
