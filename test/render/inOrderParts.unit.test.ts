import test from 'ava';
import { InOrderParts } from '../../src/render/output/InOrderParts.js';

async function readAll(parts: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const part of parts) out += part;
  return out;
}

test('pieces given out of order are read in position order, and reading waits for the missing ones', async (t) => {
  const parts = new InOrderParts(4);
  const reading = readAll(parts);
  parts.put(2, ['c']);
  parts.put(1, []); // a position that contributes nothing (a failed page)
  await new Promise((resolve) => setImmediate(resolve));
  parts.put(3, ['d1', 'd2']);
  parts.put(0, ['a']);
  parts.end();
  t.is(await reading, 'acd1d2');
});

test('a position never given fails the reading at end() instead of leaving it waiting', async (t) => {
  const parts = new InOrderParts(3);
  const reading = readAll(parts);
  parts.put(0, ['a']);
  parts.put(2, ['c']);
  parts.end();
  await t.throwsAsync(reading, { message: '2 of 3 parts never arrived' });
});

test('fail() ends the reading with the error', async (t) => {
  const parts = new InOrderParts(2);
  const reading = readAll(parts);
  parts.put(0, ['a']);
  parts.fail(new Error('page 2 broke the export'));
  await t.throwsAsync(reading, { message: 'page 2 broke the export' });
});
