/**
 * The tree-ish an export reads a git source from: the revision itself, or its docs folder
 * (`rev:path`, which `git archive` unpacks with the folder as the root).
 */
export function gitSourceTree(rev: string, path: string | undefined): string {
  return path ? `${rev}:${path}` : rev;
}
