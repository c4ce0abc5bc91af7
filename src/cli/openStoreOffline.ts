import type { Config } from '../config/schema.js';
import { prepareDataDir } from '../app/bootstrap/bootstrapDataDir.js';
import { openControlStore, type ControlStore } from '../features/control/ControlStore.js';
import { DataDirLock, DataDirLockedError } from '../platform/store/DataDirLock.js';
import { StoreFileError } from '../platform/store/StoreFileError.js';
import type { CliIo } from './CliIo.js';

/**
 * Runs `work` holding the data directory lock, or resolves with the DataDirLockedError without
 * running it when a server holds the lock: the caller then goes through the API instead, or
 * explains. A damaged store file is explained and resolves with null.
 */
export async function withDataDirLock<T>(config: Config, io: CliIo, work: () => Promise<T>): Promise<T | null | DataDirLockedError> {
  await prepareDataDir(config.dataDir);
  let lock: DataDirLock;
  try {
    lock = await DataDirLock.acquire(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) return err;
    throw err;
  }
  try {
    return await work();
  } catch (err) {
    if (err instanceof StoreFileError) {
      io.err.write(`enclave: ${err.message}\n`);
      return null;
    }
    throw err;
  } finally {
    await lock.release();
  }
}

/**
 * Opens the store for verbs that work without the server (init, keys, sites). Takes the data
 * directory lock, so it refuses while a server owns the directory.
 */
export async function withOfflineStore<T>(config: Config, io: CliIo, work: (control: ControlStore) => Promise<T>): Promise<T | null> {
  const result = await withDataDirLock(config, io, async () => {
    const control = await openControlStore(config);
    const value = await work(control);
    await control.document.flush();
    return value;
  });
  if (!(result instanceof DataDirLockedError)) return result;
  io.err.write(`enclave: ${result.message}\n`);
  return null;
}
