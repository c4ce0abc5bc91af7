/** Entries kept before the memo starts afresh (tens of thousands of files per large site; forgetting only costs a check). */
const LIMIT = 250_000;

/**
 * The variant files one deployer made or checked against their recorded SHA-256 (settleVariants):
 * versions layered over the one holding such a file serve it at once instead of checking it
 * again. A new deployer (a restart) starts empty, so each is checked once more before it is served.
 */
export class VerifiedVariants {
  /** Absolute path → SHA-256. */
  private readonly checked = new Map<string, string>();

  /** Notes that the variant at `absPath` holds bytes with `sha256`. */
  note(absPath: string, sha256: string): void {
    if (this.checked.size >= LIMIT) this.checked.clear();
    this.checked.set(absPath, sha256);
  }

  /** Whether the variant at `absPath` was made or checked with `sha256`. */
  has(absPath: string, sha256: string): boolean {
    return this.checked.get(absPath) === sha256;
  }
}
