import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/loadConfig.js';
import { makeTempDir } from '../helpers/testAppliance.js';

test('staticExport.enabled without a bundleUrl is a config error naming the key', async (t) => {
  const dir = await makeTempDir('enclave-deploy-config-');
  const file = join(dir, 'enclave.json');
  await writeFile(file, JSON.stringify({ staticExport: { enabled: true } }));
  const err = t.throws(() => loadConfig({ env: { ENCLAVE_DATA_DIR: dir, ENCLAVE_CONFIG: file } }), { instanceOf: ConfigError });
  t.regex(err!.message, /staticExport\.bundleUrl: bundleUrl is required when enabled is true/);
  await writeFile(
    file,
    JSON.stringify({ staticExport: { enabled: true, bundleUrl: 'file:///media/usb/docs.zip', version: '2026-11-20.1a2b3c' } }),
  );
  const config = loadConfig({ env: { ENCLAVE_DATA_DIR: dir, ENCLAVE_CONFIG: file } });
  t.is(config.staticExport.version, '2026-11-20.1a2b3c');
  t.is(config.staticExport.keepVersions, 3);
});
