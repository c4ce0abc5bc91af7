import test from 'ava';
import { runCli } from '../../src/cli/enclave.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { captureCliIo } from '../helpers/captureCliIo.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { ASK_SITE } from './askSite.js';
import { ASK_DOMAIN, startAssistantHarness } from './assistantHarness.js';

test('enclave keys create --kind assistant makes an enc_asst_ key, offline and through a running server; list tells the kinds apart', async (t) => {
  const dir = await makeTempDir();
  const env = { ENCLAVE_DATA_DIR: dir };
  t.is(await runCli(['init'], captureCliIo(env).io), 0);
  const created = captureCliIo(env);
  t.is(await runCli(['keys', 'create', '--name', 'widget', '--kind', 'assistant'], created.io), 0);
  t.regex(created.out(), /^ENCLAVE_ASSISTANT_KEY=enc_asst_[0-9A-Za-z]{46}\nENCLAVE_PROJECT_ID=proj_[0-9a-f]{16}\n$/);
  // A script that evals the output may start the server with it in the environment.
  t.notThrows(() => loadConfig({ env: { ...env, ENCLAVE_ASSISTANT_KEY: 'enc_asst_x' } }));
  const listed = captureCliIo(env);
  t.is(await runCli(['keys', 'list'], listed.io), 0);
  t.regex(listed.out(), /widget\s+read\s+enc_asst_…/);
  const bad = captureCliIo(env);
  t.not(await runCli(['keys', 'create', '--name', 'x', '--kind', 'root'], bad.io), 0);
  t.regex(bad.err(), /--kind must be admin or assistant/);

  // Through a running server (the local CLI key), and the key it prints opens search.
  const h = await startAssistantHarness(ASK_SITE);
  t.teardown(() => h.close());
  const live = captureCliIo({ ENCLAVE_DATA_DIR: h.app.dataDir });
  t.is(await runCli(['keys', 'create', '--name', 'live', '--kind', 'assistant'], live.io), 0, live.err());
  const key = /ENCLAVE_ASSISTANT_KEY=(\S+)/.exec(live.out())?.[1] ?? '';
  t.is((await h.post(`/v1/search/${ASK_DOMAIN}`, { query: 'budget' }, key)).status, 200);
});
