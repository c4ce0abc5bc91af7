import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import Provider from 'oidc-provider';

/** A real OpenID Provider (the certified `oidc-provider`) on 127.0.0.1, with its development login form. */
export interface TestOidcProvider {
  issuer: string;
  /** Registers the relying party (Enclave) once its callback URL is known; every account gets `groups`. */
  register(redirectUri: string, groups: unknown): void;
  /** Stops answering (a provider that is down), or starts again. */
  setDown(down: boolean): void;
}

/** Starts the provider's listener first, so its issuer URL is known before the appliance is configured with it. */
export async function startOidcProvider(t: ExecutionContext): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  let down = false;
  const server = createServer((req, res) => {
    if (down || !handler) {
      req.socket.destroy();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    register(redirectUri, groups) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: 'enclave-docs',
            client_secret: 'a-client-secret-for-tests',
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], groups: ['groups'] },
        // Claims in the ID token itself (not only from userinfo), as groupsSource id_token reads them.
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: true } },
        findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, groups }) }),
        loadExistingGrant: async (ctx) => {
          // Consent is given at once: the test is about Enclave, not the provider's consent screen.
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
          grant.addOIDCScope('openid groups');
          grant.addOIDCClaims(['groups']);
          await grant.save();
          return grant;
        },
      });
      handler = provider.callback();
    },
    setDown(value) {
      down = value;
    },
  };
}
