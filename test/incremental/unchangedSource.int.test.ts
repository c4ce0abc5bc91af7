import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { unchangedSource } from '../../src/features/exports/worker/sourceStats.js';

/** The separator of a stat line's fields. */
const NUL = '\0';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A source folder of three files and the record an export of it would leave. Stat lines are
 * made up (the check compares them as strings), so no test waits for the racy window to pass.
 */
async function recorded(t: ExecutionContext) {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-unchanged-source-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const texts: Record<string, string> = { 'a.mdx': 'page a\n', 'b.mdx': 'page b\n', 'docs.json': '{}\n' };
  for (const [rel, text] of Object.entries(texts)) await writeFile(join(dir, rel), text);
  const stats = Object.keys(texts).map((rel, i) => `${rel}\0${texts[rel].length}\0${i}000\0${i}000\0${i + 10}`);
  const hashes = Object.fromEntries(Object.entries(texts).map(([rel, text]) => [rel, sha256(text)]));
  return { dir, last: { stats, hashes }, stats };
}

/** `stats` with the line of the file at `i` replaced by another stat of the same file. */
const touched = (stats: string[], i: number, line = `${stats[i].slice(0, stats[i].indexOf(NUL))}${NUL}999${NUL}999${NUL}999${NUL}999`) =>
  stats.map((s, j) => (j === i ? line : s));

test('only files whose stat differs are read: the others are taken from the record, even when gone from disk', async (t) => {
  const { dir, last, stats } = await recorded(t);
  t.deepEqual(await unchangedSource(last, stats, dir), last.hashes, 'every stat the same: nothing read');
  // A file whose stat matches is never read: removing it, or recording a wrong hash for it, goes unseen.
  await rm(join(dir, 'b.mdx'));
  t.deepEqual(await unchangedSource(last, stats, dir), last.hashes);
  const wrongB = { stats: last.stats, hashes: { ...last.hashes, 'b.mdx': '0'.repeat(64) } };
  t.not(await unchangedSource(wrongB, stats, dir), null, 'a matching stat trusts the recorded hash');
  // The same wrong hash with b's stat differing: b is read (it is gone), so the source counts as changed.
  t.is(await unchangedSource(wrongB, touched(stats, 1), dir), null);
});

test('a touched file with the same bytes is unchanged; changed bytes, a racy file that changed, or another file list are not', async (t) => {
  const { dir, last, stats } = await recorded(t);
  t.deepEqual(await unchangedSource(last, touched(stats, 0), dir), last.hashes, 'touched, same bytes');
  t.deepEqual(await unchangedSource(last, touched(stats, 0, 'a.mdx\0racy'), dir), last.hashes, 'racy, same bytes');

  await writeFile(join(dir, 'a.mdx'), 'page A\n');
  t.is(await unchangedSource(last, touched(stats, 0), dir), null, 'same size, other bytes');
  t.is(await unchangedSource(last, touched(stats, 0, 'a.mdx\0racy'), dir), null, 'a racy line is always read');
  // The stat line kept as recorded (a write the stat could not tell): the recorded hash is believed,
  // which is why a file written within the racy window is recorded as racy, never by its stat.
  t.not(await unchangedSource(last, stats, dir), null);

  t.is(await unchangedSource(last, stats.slice(0, 2), dir), null, 'a file removed');
  t.is(await unchangedSource(last, [...stats.slice(0, 2), `c.mdx${stats[2].slice(stats[2].indexOf('\0'))}`], dir), null, 'a file renamed');
  t.is(await unchangedSource({ stats: last.stats, hashes: {} }, stats, dir), null, 'a record without hashes');
});
