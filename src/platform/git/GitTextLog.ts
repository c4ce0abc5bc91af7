/**
 * A GitLog kept in memory, trimmed to its last `capChars`: enough of git's stderr to say why a
 * fetch failed (git prints the reason last) without growing with a chatty server.
 */
export class GitTextLog {
  private text = '';

  constructor(private readonly capChars = 4000) {}

  /** Appends output, keeping only the tail. */
  write(chunk: string | Buffer): void {
    this.text = (this.text + chunk.toString()).slice(-this.capChars);
  }

  /** git's last `fatal:`/`error:` line, or the last line of output when none says so. */
  reason(): string {
    const lines = this.text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('$ '));
    return [...lines].reverse().find((l) => /^(fatal|error):/.test(l)) ?? lines.at(-1) ?? '';
  }
}
