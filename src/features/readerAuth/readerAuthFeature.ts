import type { OidcFlows } from '../../platform/oidc/OidcFlows.js';
import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { ReaderGate } from '../deployments/site/ReaderGate.js';
import type { Feature, FeatureContext } from '../Feature.js';
import { createReaderGate } from './createReaderGate.js';
import { readerAuthRoutes } from './readerAuthRoutes.js';
import { ReaderSessions } from './ReaderSessions.js';
import { SignedOutSessions } from './SignedOutSessions.js';
import { signInShells } from './signInShells.js';

/** Reader sign-in: the sign-in routes, and the gate the site handler asks about every request. */
export interface ReaderAuthFeature extends Feature {
  gate: ReaderGate;
}

/**
 * Builds reader sign-in: sessions signed with the appliance's keyring (sign-outs kept on disk), the gate (app/ hands it
 * to the site handler) and the sign-in and sign-out routes on each site's host.
 */
export async function createReaderAuthFeature(
  ctx: FeatureContext,
  deps: { activeSite: ActiveSite; oidc: OidcFlows },
): Promise<ReaderAuthFeature> {
  const signedOut = await SignedOutSessions.open(ctx.config.dataDir, ctx.clock);
  const sessions = new ReaderSessions(ctx.keyring, ctx.clock, signedOut);
  const parts = createReaderGate({ sites: ctx.sites, sessions, clock: ctx.clock });
  return {
    name: 'readerAuth',
    routes: [],
    gate: parts.gate,
    middleware: [
      readerAuthRoutes({
        gate: parts,
        sessions,
        activeSite: deps.activeSite,
        clock: ctx.clock,
        httpsPublicUrl: () => ctx.publicUrl().startsWith('https:'),
        signInShell: signInShells(deps.activeSite),
        oidc: deps.oidc,
      }),
    ],
  };
}
