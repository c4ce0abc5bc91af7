// Reads what scripts/testCpuMeter.mjs noted in every ava worker of a run: the CPU seconds per
// test file, most first, for scripts/test.mjs to print beside the longest files.
import { existsSync, readFileSync } from 'node:fs';

/** The files of `log` by CPU seconds (own + children), most first, and their sum. */
export function readTestCpu(log) {
  if (!existsSync(log)) return { files: [], total: 0 };
  const byFile = new Map();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (!line) continue;
    const { file, own, children } = JSON.parse(line);
    byFile.set(file, (byFile.get(file) ?? 0) + own + children);
  }
  const files = [...byFile].map(([file, seconds]) => ({ file, seconds })).sort((a, b) => b.seconds - a.seconds);
  return { files, total: files.reduce((sum, f) => sum + f.seconds, 0) };
}

/** CPU seconds of this process's children that it has waited for (ava and, through it, every worker). */
export function childrenCpuSeconds() {
  // /proc/self/stat fields 16 and 17 (cutime, cstime), in clock ticks of 1/100 s on Linux.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
