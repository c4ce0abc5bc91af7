import { z } from 'zod';

/**
 * Who may open one page once a site has reader sign-in: everyone (`public`), any signed-in
 * reader (`signed-in`, the default), or signed-in readers holding at least one of the groups.
 */
export type PageAccess = 'public' | 'signed-in' | string[];

/** Where an export writes its access map (see AccessMap); absent when no page is marked. */
export const ACCESS_MAP_PATH = '_enclave/access.json';

/** The folder of one audience's own search index and llms files inside a bundle. */
export function audienceFolder(id: string): string {
  return `_enclave/audiences/${id}`;
}

/** The files an export writes once per audience, named as within `audienceFolder`. */
export const AUDIENCE_FILES = { searchIndex: 'search-index.js', llms: 'llms.txt', llmsFull: 'llms-full.txt' } as const;

/**
 * An audience the export built its own search index and llms files for: `groups` null is the
 * public (not signed in); an array is a signed-in reader holding exactly those of the site's groups.
 */
export interface BuiltAudience {
  id: string;
  groups: string[] | null;
}

const pageAccessSchema = z.union([z.literal('public'), z.literal('signed-in'), z.array(z.string().min(1).max(200)).min(1).max(100)]);

/**
 * `_enclave/access.json`: every page's access (by page path, as the manifest names pages), the
 * audiences built, and the restricted assets. A map with no audience marks no page (it is written
 * for its assets alone): every page then needs a signed-in reader, as without a map.
 */
export const accessMapSchema = z.object({
  v: z.literal(1),
  pages: z.record(z.string().max(1024), pageAccessSchema),
  audiences: z.array(z.object({ id: z.string().regex(/^[a-z0-9-]{1,40}$/), groups: z.array(z.string()).nullable() })).max(1000),
  /** The source's files (images, downloads) only some readers may load, by bundle path: as open as the most open page using them. */
  assets: z.record(z.string().max(1024), pageAccessSchema).optional(),
});

/** The parsed access map of a bundle. */
export type AccessMap = z.infer<typeof accessMapSchema>;
