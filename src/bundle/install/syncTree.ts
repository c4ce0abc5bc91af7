import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDirectory } from '../../platform/store/writeFileDurably.js';
import { forEachConcurrently } from './forEachConcurrently.js';

/** fsyncs issued at once when falling back: the libuv pool has four threads by default. */
const FSYNC_CONCURRENCY = 4;

/**
 * Makes a freshly written tree durable: every file in `files` (absolute paths) and every
 * directory holding one. One syncfs(2) on the tree's file system (`sync -f`) does it in a
 * single call, instead of thousands of fsyncs that each wait for a journal commit; where
 * `sync -f` is unavailable or fails, each file and directory is fsynced.
 */
export async function syncTree(root: string, files: readonly string[]): Promise<void> {
  if (await syncFileSystem(root)) return;
  await forEachConcurrently(files, FSYNC_CONCURRENCY, async (file) => {
    const handle = await open(file, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
  const dirs = new Set(files.map((f) => dirname(f)));
  dirs.add(root);
  await forEachConcurrently([...dirs], FSYNC_CONCURRENCY, fsyncDirectory);
}

function syncFileSystem(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('sync', ['-f', path], { timeout: 120_000 }, (err) => resolve(!err));
  });
}
