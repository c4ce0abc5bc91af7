import { chmod, stat } from 'node:fs/promises';
import type { Logger } from 'pino';

/**
 * Takes "other" permissions off the data directory. Run when the agent gets a user of its
 * own: a directory created as 0755 (a Docker volume, `mkdir -p`) would let that user list it
 * and read every world-readable store file, which is exactly what the separate user is for.
 */
export async function closeDataDirToOthers(dataDir: string, logger: Logger): Promise<void> {
  const { mode } = await stat(dataDir);
  if ((mode & 0o007) === 0) return;
  await chmod(dataDir, mode & 0o770);
  logger.warn(
    { dataDir, was: (mode & 0o777).toString(8) },
    "took other users' access off the data directory: the agent runs as another user and must not read it",
  );
}
