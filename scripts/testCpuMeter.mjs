// Loaded into every ava worker by scripts/test.mjs (`--import`): when the worker ends, it appends
// one line to the file named by ENCLAVE_TEST_CPU_LOG with the CPU seconds its test file burnt,
// its own (threads included) plus its reaped children's (export workers, child appliances, git,
// Chromium). Wall time is noise on a loaded 2-core machine; CPU time is what the suite costs.
import { appendFileSync } from 'node:fs';
import { sourceName } from './ava-suite.config.mjs';
import { childrenCpuSeconds } from './testCpuReport.mjs';

const log = process.env.ENCLAVE_TEST_CPU_LOG;
if (log) {
  let file = null;
  // ava sends the worker its options, the test file among them, as the first IPC message.
  const onMessage = (message) => {
    if (message?.ava?.type !== 'options') return;
    file = message.ava.options.file;
    process.off('message', onMessage);
  };
  process.on('message', onMessage);
  process.once('exit', () => {
    if (!file) return;
    const own = process.resourceUsage();
    const children = childrenCpuSeconds();
    const seconds = (own.userCPUTime + own.systemCPUTime) / 1e6;
    const path = sourceName(file.startsWith('file:') ? new URL(file).pathname : file);
    appendFileSync(log, `${JSON.stringify({ file: path, own: seconds, children })}\n`);
  });
}
