import type { Config } from '../config/schema.js';
import { ConfigError, loadConfig } from '../config/loadConfig.js';
import type { CliIo } from './CliIo.js';

/** Loads the config for a CLI verb; prints every problem and returns null when it is invalid. */
export function loadConfigOrExplain(io: CliIo): Config | null {
  try {
    return loadConfig({ env: io.env });
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err.write(`${err.message}\n`);
      return null;
    }
    throw err;
  }
}
