import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/** Rewrites the claims of the ID token the token endpoint answers with (the token is then signed again with the provider's own key). */
export type IdTokenTamper = (claims: JWTPayload) => JWTPayload;

/** A real OpenID Provider (the certified `oidc-provider`) on 127.0.0.1, with its development login form. */
export interface TestOidcProvider {
  issuer: string;
  /** The relying-party settings (readers' `auth` or `dashboard.oidc`) of a client registered here, ID-token groups. */
  client(clientId?: string): typeof CLIENT_DEFAULTS & { issuer: string; clientId: string; clientSecret: string };
  /** Registers the relying party (Enclave) once its callback URL is known; every account gets `groups` (or what it answers for the account). */
  register(redirectUri: string, groups: unknown, clientId?: string): void;
  /** Stops answering (a provider that is down), or starts again. */
  setDown(down: boolean): void;
  /**
   * From now on the token endpoint's ID token carries claims changed by `tamper` and is signed
   * again with the provider's own signing key (which the test made and passed in), so only the
   * claims are wrong: a wrong nonce, issuer or audience as a relying party would see it. Null: as issued.
   */
  tamperIdToken(tamper: IdTokenTamper | null): void;
}

const CLIENT_SECRET = 'a-client-secret-for-tests';
const CLIENT_DEFAULTS = {
  scopes: ['openid', 'groups'],
  authorizationParams: {},
  groupsSource: 'id_token' as const,
  groupsClaim: 'groups',
  allowInsecureIssuer: true,
};

/** Starts the provider's listener first, so its issuer URL is known before the appliance is configured with it. */
export async function startOidcProvider(t: ExecutionContext): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  let down = false;
  let tamper: IdTokenTamper | null = null;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-signing-key', alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    if (down || !handler) {
      req.socket.destroy();
      return;
    }
    if (tamper && req.method === 'POST' && req.url?.startsWith('/token')) rewriteIdToken(res, tamper, privateKey, signingKey.kid);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    client: (clientId = 'enclave-docs') => ({ ...CLIENT_DEFAULTS, issuer, clientId, clientSecret: CLIENT_SECRET }),
    register(redirectUri, groups, clientId = 'enclave-docs') {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: CLIENT_SECRET,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        jwks: { keys: [signingKey] },
        claims: { openid: ['sub'], groups: ['groups'] },
        // Claims in the ID token itself (not only from userinfo), as groupsSource id_token reads them.
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: true } },
        findAccount: (_ctx, sub) => ({
          accountId: sub,
          claims: () => ({ sub, groups: typeof groups === 'function' ? (groups as (sub: string) => unknown)(sub) : groups }),
        }),
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
    tamperIdToken(value) {
      tamper = value;
    },
  };
}

/** Holds back the token endpoint's answer, re-signs its ID token with changed claims, then sends it. */
function rewriteIdToken(res: ServerResponse, tamper: IdTokenTamper, key: CryptoKey, kid: string): void {
  const end = res.end.bind(res) as (body?: Buffer) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    void (async () => {
      const text = Buffer.isBuffer(chunk) ? chunk.toString('utf8') : typeof chunk === 'string' ? chunk : '';
      let body = Buffer.from(text);
      const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (typeof json.id_token === 'string') {
        const claims = tamper(decodeJwt(json.id_token));
        json.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
        body = Buffer.from(JSON.stringify(json));
        res.setHeader('Content-Length', body.length);
      }
      end(body);
    })();
    return res;
  }) as typeof res.end;
}
