/**
 * Many short strings kept as one, separated by NUL, for substring search in a single pass:
 * `indexOf` over one string is far faster than a call per string, and one string costs far less
 * memory than many. Terms are runs of letters, digits and `_`, so a match never spans a separator.
 */
export class JoinedStrings {
  private readonly text: string;
  private readonly starts: Int32Array;

  constructor(strings: readonly string[]) {
    this.starts = new Int32Array(strings.length + 1);
    let at = 0;
    for (let i = 0; i < strings.length; i++) {
      this.starts[i] = at;
      at += strings[i].length + 1;
    }
    this.starts[strings.length] = at;
    this.text = strings.join('\0');
  }

  /** How many strings are held. */
  get size(): number {
    return this.starts.length - 1;
  }

  /** String `i`. */
  at(i: number): string {
    return this.text.slice(this.starts[i], this.starts[i + 1] - 1);
  }

  /** Calls `found(i, at)` once for each string containing `term`, with where it first occurs in that string. */
  forEachContaining(term: string, found: (index: number, at: number) => void): void {
    if (term === '') return;
    for (let p = this.text.indexOf(term); p >= 0; ) {
      const i = this.indexAt(p);
      found(i, p - this.starts[i]);
      p = this.text.indexOf(term, this.starts[i + 1]);
    }
  }

  /** The string holding text position `p` (binary search over the starts). */
  private indexAt(p: number): number {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= p) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
