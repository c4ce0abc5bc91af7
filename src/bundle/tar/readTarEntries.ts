import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import { BundleRefusedError } from '../BundleRefusedError.js';

/** What a tar header says an entry is; anything but a file or a folder is refused by the caller. */
export type TarEntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'special';

/** One entry's header, its name exactly as the archive (or its pax record) spells it. */
export interface TarEntryHeader {
  name: string;
  type: TarEntryType;
  size: number;
}

function typeOf(entry: ReadEntry): TarEntryType {
  switch (entry.type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return 'file';
    case 'Directory':
      return 'directory';
    case 'SymbolicLink':
      return 'symlink';
    case 'Link':
      return 'hardlink';
    default:
      return 'special';
  }
}

/**
 * Reads a `.tar.gz` (or plain tar) from start to end, calling `visit` for every entry in order
 * with its body, which `visit` must consume (or `resume()` to skip); the archive is read no
 * faster than the bodies are. node-tar parses (pax and GNU long names included) but names are
 * handed over unchanged, never cleaned: the caller's rules must see what the archive says.
 * A `visit` that throws stops the read with its error; a damaged archive is a refusal.
 */
export async function readTarEntries(path: string, visit: (header: TarEntryHeader, body: Readable) => Promise<void>): Promise<void> {
  let failure: unknown = null;
  let chain = Promise.resolve();
  // Bodies handed out and not yet ended: when the archive breaks off, they must end too, with the error.
  const open = new Set<Readable>();
  const parser = new Parser({
    strict: true,
    onReadEntry(entry) {
      const header: TarEntryHeader = { name: entry.path, type: typeOf(entry), size: entry.size ?? 0 };
      const body = Readable.from(entry);
      open.add(body);
      // A body skipped with resume() has no reader to tell; the visitor's own pipeline still sees the error.
      body.on('error', () => {});
      body.once('close', () => open.delete(body));
      chain = chain.then(async () => {
        // After a failure the rest is drained unread, so the parser can reach its end.
        if (failure !== null) return void body.resume();
        try {
          await visit(header, body);
        } catch (err) {
          failure ??= err;
          body.resume();
          parser.abort(err instanceof Error ? err : new Error(String(err)));
        }
      });
    },
  });
  try {
    await pipeline(createReadStream(path), parser);
  } catch (err) {
    failure ??= err;
    for (const body of open) body.destroy(err instanceof Error ? err : new Error(String(err)));
  }
  await chain;
  if (failure === null) return;
  if (failure instanceof BundleRefusedError) throw failure;
  throw new BundleRefusedError(`corrupt tar.gz: ${(failure as Error).message}`);
}
