import type { Config } from '../config/schema.js';
import { prepareDataDir } from '../app/bootstrap/bootstrapDataDir.js';
import { openControlStore, type ControlStore } from '../features/control/ControlStore.js';
import { DataDirLock, DataDirLockedError } from '../platform/store/DataDirLock.js';
import { StoreFileError } from '../platform/store/StoreFileError.js';
import type { CliIo } from './CliIo.js';

/**
 * Opens the store for verbs that work without the server (init, keys, sites). Takes the data
 * directory lock, so it refuses while a server owns the directory.
 */
export async function withOfflineStore<T>(config: Config, io: CliIo, work: (control: ControlStore) => Promise<T>): Promise<T | null> {
  await prepareDataDir(config.dataDir);
  let lock: DataDirLock;
  try {
    lock = DataDirLock.acquire(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      io.err.write(`enclave: ${err.message}\n`);
      return null;
    }
    throw err;
  }
  try {
    const control = await openControlStore(config);
    const result = await work(control);
    await control.document.flush();
    return result;
  } catch (err) {
    if (err instanceof StoreFileError) {
      io.err.write(`enclave: ${err.message}\n`);
      return null;
    }
    throw err;
  } finally {
    lock.release();
  }
}
