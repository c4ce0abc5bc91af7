import type { SiteDirectory } from '../control/SiteDirectory.js';
import { AppError } from '../../platform/AppError.js';

/** An assistant key's check, as control's `verifyAssistantKey` port answers it. */
export type AssistantKeyCheck = { ok: true; keyId: string; projectId: string } | { ok: false; reason: string };

/** Control's port: checks a key presented to an assistant endpoint (only live assistant keys pass). */
export type VerifyAssistantKey = (presented: string | undefined) => AssistantKeyCheck;

/** Who called an assistant endpoint, and for which site (its domain, lower-case). */
export interface AssistantCaller {
  keyId: string;
  projectId: string;
  domain: string;
}

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Checks an `Authorization` header and the site it is used on: 401 (WWW-Authenticate) for a
 * missing, bad, revoked or expired key or an admin key; 404 for a domain no site serves; 403
 * for a site of another project. Shared by the HTTP routes and the MCP endpoint.
 */
export function checkAssistantCaller(
  verify: VerifyAssistantKey,
  sites: Pick<SiteDirectory, 'find'>,
  authorization: string,
  domain: string,
): AssistantCaller {
  const presented = BEARER.exec(authorization)?.[1];
  const check = verify(authorization && !presented ? '!' : presented);
  if (!check.ok) throw AppError.unauthorized('Missing or invalid assistant key');
  const site = sites.find(domain);
  if (!site) throw AppError.notFound(`No site serves ${domain}`);
  if (site.projectId !== check.projectId) throw AppError.forbidden('This key does not belong to the project of that site');
  return { keyId: check.keyId, projectId: check.projectId, domain: site.domain.toLowerCase() };
}
