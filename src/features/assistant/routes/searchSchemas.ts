import { z } from 'zod';

/** The `filter` of a search or an assistant message (hosted shape). */
export const searchFilterSchema = z.strictObject({
  version: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe("Version to search (the navigation's label or code); default: the site's default version"),
  language: z.string().min(1).max(35).optional().describe("Language code to search; default: the site's default language"),
  tag: z.string().min(1).max(100).optional().describe('Only pages whose frontmatter `tag` is this'),
  groups: z.array(z.string().min(1).max(100)).max(50).optional().describe('Reader groups the caller belongs to (reader sign-in)'),
});

/** `POST /v1/search/{domain}` body. */
export const searchBodySchema = z.strictObject({
  query: z.string().trim().min(1).max(1000).describe('What to look for: keywords or a question'),
  pageSize: z.number().int().min(1).max(50).default(10).describe('Sections to return at most'),
  scoreThreshold: z.number().min(0).max(1).optional().describe('Leave out sections scoring below this (0–1)'),
  filter: searchFilterSchema.optional(),
});

/** `POST /v1/page/{domain}` body. */
export const pageBodySchema = z.strictObject({
  path: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe('Page path, as search results give it (`guides/start`; a leading slash or `.md` is fine)'),
  groups: z.array(z.string().min(1).max(100)).max(50).optional().describe('Reader groups the caller belongs to (reader sign-in)'),
});

/** One search hit (hosted shape). */
export const searchHitSchema = z.object({
  content: z.string().describe("The section's Markdown"),
  path: z.string().describe('Page path; the section is at /{path}#{metadata.anchor}'),
  metadata: z
    .object({
      title: z.string().describe('Page title'),
      section: z.string().describe("Section heading ('' for the top of the page)"),
      anchor: z.string().describe("Section id on the page ('' for the top)"),
      version: z.string().nullable(),
      language: z.string().nullable(),
      product: z.string().nullable(),
      tag: z.string().nullable(),
      score: z.number().describe('0–1, higher is better'),
    })
    .loose(),
});

/** The domain path parameter. */
export const domainParams = z.strictObject({ domain: z.string().min(1).max(253).describe('The site, as its host name') });
