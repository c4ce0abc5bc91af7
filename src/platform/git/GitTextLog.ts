/** git's words when the transport (ssh, a remote helper) ended before the remote answered. */
const TRANSPORT_FAILED = /^fatal: Could not read from remote repository/;

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

  /**
   * git's last `fatal:`/`error:` line, or the last line of output when none says so. Over ssh
   * that line is git's generic "Could not read from remote repository": ssh's own line just
   * above it (host key verification failed, permission denied, connection refused) says why,
   * so it leads.
   */
  reason(): string {
    const lines = this.text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('$ '));
    const at = lines.findLastIndex((l) => /^(fatal|error):/.test(l));
    if (at < 0) return lines.at(-1) ?? '';
    const fatal = lines[at]!;
    const cause = at > 0 && TRANSPORT_FAILED.test(fatal) ? lines[at - 1] : undefined;
    return cause ? `${cause} ${fatal}` : fatal;
  }
}
