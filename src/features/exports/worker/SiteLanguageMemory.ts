/** What a spare worker is asked to warm: languages known from exports, and docs folders to read for more. */
export interface WarmUpPlan {
  /** Fence languages the sites' latest whole exports found, the latest export's first. */
  languages: string[];
  /** Docs folders of sites not exported yet (in this process): their pages are read instead. */
  unscanned: string[];
}

/**
 * Fence languages each site's latest whole export found, by docs folder, the latest export last.
 * Kept in memory only: after a restart the sites' pages are read again, which costs a spare
 * worker's idle time, never a job's.
 */
export class SiteLanguageMemory {
  private readonly bySource = new Map<string, string[]>();

  /** Remembers what a whole export of `source` found; it becomes the latest. */
  remember(source: string, languages: string[]): void {
    this.bySource.delete(source);
    this.bySource.set(source, languages);
  }

  /**
   * What to warm for the next export, which is one of the sites now configured (`sources`):
   * appliances export the same docs again and again, so the last export's languages come first.
   * Folders no longer configured are left out.
   */
  planFor(sources: readonly string[]): WarmUpPlan {
    const latestFirst = [...this.bySource.keys()].reverse().filter((source) => sources.includes(source));
    return {
      languages: latestFirst.flatMap((source) => this.bySource.get(source)!),
      unscanned: sources.filter((source) => !this.bySource.has(source)),
    };
  }
}
