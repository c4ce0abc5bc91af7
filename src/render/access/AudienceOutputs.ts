import type { BundleSink } from '../../bundle/BundleSink.js';
import { mayOpenPage } from '../../platform/access/mayAudienceSee.js';
import { type AccessMap, AUDIENCE_FILES, audienceFolder } from '../../platform/access/PageAccess.js';
import { buildLlmsTxt, type LlmsPage } from '../output/buildLlmsTxt.js';
import type { TextPiece } from '../../bundle/BundleSink.js';
import { InOrderParts } from '../output/InOrderParts.js';
import { searchIndexScript } from '../search/searchIndexScript.js';

/** One page's part of the site-wide outputs, as renderSite hands it over. */
export interface AudiencePart {
  position: number;
  path: string;
  /** The page's search entry as JSON (text or UTF-8 bytes), or null when it is not indexed. */
  searchEntry: TextPiece | null;
  /** Its piece of llms-full.txt (the Markdown copy and separator), or none. */
  llmsFull: TextPiece[];
}

/**
 * The search index, llms.txt and llms-full.txt of each audience in the access map, written
 * under `_enclave/audiences/<id>/` beside the site-wide ones, so a reader's search never holds
 * a title or snippet of a page they can't open: the site handler serves their audience's files
 * in place of the site-wide ones. Streamed while pages render, like the site-wide files.
 */
export class AudienceOutputs {
  private readonly streams: { see: (path: string) => boolean; search: InOrderParts<TextPiece>; full: InOrderParts<TextPiece> }[];
  private readonly written: Promise<void>[] = [];

  private constructor(
    private readonly map: AccessMap,
    count: number,
    private readonly out: BundleSink,
  ) {
    this.streams = map.audiences.map((audience) => {
      const reader = audience.groups === null ? null : { groups: audience.groups };
      const stream = {
        see: (path: string) => mayOpenPage(map.pages[path], reader),
        search: new InOrderParts<TextPiece>(count),
        full: new InOrderParts<TextPiece>(count),
      };
      const folder = audienceFolder(audience.id);
      this.written.push(
        out.writeParts(`${folder}/${AUDIENCE_FILES.searchIndex}`, searchIndexScript(stream.search)),
        out.writeParts(`${folder}/${AUDIENCE_FILES.llmsFull}`, stream.full),
      );
      return stream;
    });
    // Awaited in finish; if the export fails first, nobody will be.
    for (const w of this.written) w.catch(() => {});
  }

  /** Starts the audiences' files for `count` pages; null (nothing to write) without an access map. */
  static open(map: AccessMap | null, count: number, out: BundleSink): AudienceOutputs | null {
    return map ? new AudienceOutputs(map, count, out) : null;
  }

  /** Adds one page to every audience that may open it (an empty part to the others). */
  put(part: AudiencePart): void {
    for (const s of this.streams) {
      const see = s.see(part.path);
      s.search.put(part.position, see && part.searchEntry !== null ? [part.searchEntry] : []);
      s.full.put(part.position, see ? part.llmsFull : []);
    }
  }

  /** Every page was put. */
  end(): void {
    for (const s of this.streams) for (const parts of [s.search, s.full]) parts.end();
  }

  /** The export failed: the streams stop. */
  fail(err: unknown): void {
    for (const s of this.streams) for (const parts of [s.search, s.full]) parts.fail(err);
  }

  /** Waits for the streamed files, then writes each audience's llms.txt (the access map is writeAccessMap's). */
  async finish(name: string, description: string | undefined, llmsPages: LlmsPage[]): Promise<void> {
    await Promise.all(this.written);
    for (const [i, audience] of this.map.audiences.entries()) {
      const visible = llmsPages.filter((p) => this.streams[i].see(p.path));
      await this.out.write(`${audienceFolder(audience.id)}/${AUDIENCE_FILES.llms}`, buildLlmsTxt(name, description, visible));
    }
  }
}
