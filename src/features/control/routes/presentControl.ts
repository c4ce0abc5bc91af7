import { z } from 'zod';
import type { AdminKeyRecord } from '../controlDocument.js';
import type { ControlOperations } from '../createControlOperations.js';

/** A site as the operations return it. */
type Site = ReturnType<ControlOperations['listSites']>[number];

/** The public shape of an admin key: never the secret or its hash, only the last four characters. */
export const adminKeySchema = z.object({
  id: z.string().describe('key_ + 16 hex'),
  projectId: z.string(),
  name: z.string(),
  scope: z.enum(['read', 'write']),
  kind: z.enum(['admin', 'assistant']).describe('admin: the admin API; assistant: only search, page, assistant and MCP, for its own sites'),
  last4: z.string().describe('Last four characters of the key, to tell keys apart'),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdBy: z
    .string()
    .nullable()
    .describe('The key that created this one through the API; null when made on the store (init, offline CLI)'),
});

/** The public shape of a site. */
export const siteSchema = z.object({
  domain: z.string(),
  projectId: z.string(),
  source: z.string().describe('Folder (or local git repository) on the appliance'),
  ref: z.string().nullable().describe('Git ref exported when source is a repository'),
  origin: z.enum(['config', 'store']).describe('config: declared in the config file (read-only here); store: added through the API or CLI'),
  auth: z
    .object({
      mode: z.enum(['none', 'password', 'jwt', 'oidc']),
      sessionHours: z.number().optional(),
      loginUrl: z.string().optional().describe('jwt: the login page'),
      issuer: z.string().optional().describe('oidc: the provider'),
      clientId: z.string().optional().describe('oidc: the client id'),
    })
    .describe('Reader sign-in; never a password, its hash or a client secret'),
});

/** Whitelists the fields of a key record that clients see. */
export function presentAdminKey(k: AdminKeyRecord): z.infer<typeof adminKeySchema> {
  return {
    id: k.id,
    projectId: k.projectId,
    name: k.name,
    scope: k.scope,
    kind: k.kind ?? 'admin',
    last4: k.last4,
    createdAt: k.createdAt,
    expiresAt: k.expiresAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
    createdBy: k.createdBy ?? null,
  };
}

/** Whitelists the fields of a site that clients see. */
export function presentSite(s: Site): z.infer<typeof siteSchema> {
  const auth =
    s.auth?.mode === 'password' ? { mode: 'password' as const, sessionHours: s.auth.sessionHours ?? 12 } : { mode: 'none' as const };
  return { domain: s.domain, projectId: s.projectId, source: s.source, ref: s.ref, origin: s.origin, auth };
}
