import type { ExecutionContext } from 'ava';

/** Asserts two bundle folders hold the same files with the same bytes, naming the first that differs. */
export function assertSameTree(t: ExecutionContext, actual: Map<string, Buffer>, expected: Map<string, Buffer>, when: string): void {
  t.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${when}: the same files`);
  for (const [rel, bytes] of expected) {
    const got = actual.get(rel);
    if (!got?.equals(bytes)) {
      t.fail(`${when}: ${rel} differs from the full export's`);
      return;
    }
  }
}
