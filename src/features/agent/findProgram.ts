import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The executable file `program` (an absolute path, or a name looked up in `path`) names, or null.
 * Checked before spawning because a wrapper such as `unshare` would otherwise turn a missing
 * program into an exit code instead of the clear "could not be started (ENOENT)".
 */
export function findProgram(program: string, path: string): string | null {
  const candidates = program.includes('/')
    ? [program]
    : path
        .split(':')
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return (
    candidates.find((file) => {
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    }) ?? null
  );
}
