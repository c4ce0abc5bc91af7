import { readFile } from 'node:fs/promises';
import type * as Client from 'openid-client';
import type { Clock } from '../Clock.js';
import { readerGroups } from './readerGroups.js';

/** What an OpenID Connect client needs of its setting (a site's reader `auth`, or the dashboard's `oidc`). */
export interface OidcClientSetting {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  clientSecretFile?: string;
  scopes: string[];
  authorizationParams: Record<string, string>;
  groupsSource: 'id_token' | 'access_token' | 'userinfo' | 'infoUrl';
  groupsClaim: string;
  groupsDelimiter?: string;
  infoUrl?: string;
  allowInsecureIssuer: boolean;
}

/** Why a sign-in did not finish. */
export type OidcFailure = 'unreachable' | 'invalid-state' | 'refused';

/** An error of a sign-in, with why. */
export class OidcSignInError extends Error {
  constructor(
    readonly reason: OidcFailure,
    /** Where the failed sign-in wanted to go, when its flow was known. */
    readonly returnTo = '/',
  ) {
    super(`OIDC sign-in: ${reason}`);
  }
}

/** A sign-in started and not yet finished, by its `state` (single use: taken when the callback comes). */
interface Flow {
  /** Who started it (a site's domain, or the dashboard): a callback for another is refused. */
  owner: string;
  verifier: string;
  nonce: string;
  returnTo: string;
  redirectUri: string;
  startedAt: number;
}

/** How long a started sign-in may take at the provider. */
export const OIDC_FLOW_MS = 10 * 60_000;
const MAX_FLOWS = 10_000;

/** openid-client, loaded on the first OIDC sign-in: an appliance without OIDC never pays for it. */
const oidcClient = () => import('openid-client');

/**
 * The relying party's half of OpenID Connect (Authorization Code with PKCE, `state` and
 * `nonce`, through the certified openid-client): providers discovered once per setting (dropped
 * on failure, so a provider back up is found again), started sign-ins kept in memory for ten
 * minutes and single-use, and the groups read from the configured source and claim only.
 */
export class OidcFlows {
  private readonly flows = new Map<string, Flow>();
  private readonly providers = new Map<string, Promise<Client.Configuration>>();

  constructor(private readonly clock: Clock) {}

  /** Starts a sign-in for `owner`: the provider URL to send the browser to, and the `state` to tie to it. */
  async start(setting: OidcClientSetting, owner: string, redirectUri: string, returnTo: string): Promise<{ url: string; state: string }> {
    let config: Client.Configuration;
    try {
      config = await this.providerOf(setting);
    } catch {
      throw new OidcSignInError('unreachable');
    }
    const now = this.clock.now().getTime();
    for (const [state, flow] of this.flows)
      if (now - flow.startedAt > OIDC_FLOW_MS || this.flows.size > MAX_FLOWS) this.flows.delete(state);
    const client = await oidcClient();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    this.flows.set(state, { owner, verifier, nonce, returnTo, redirectUri, startedAt: now });
    const url = client.buildAuthorizationUrl(config, {
      ...setting.authorizationParams,
      redirect_uri: redirectUri,
      scope: [...new Set(['openid', ...setting.scopes])].join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /**
   * Finishes the sign-in the callback's `state` names: it must be one this process started, for
   * `owner`, in this browser (`browserState`, from its flow cookie), not used before and not
   * stale; then the code is exchanged with the PKCE verifier and the ID token checked (issuer,
   * audience, nonce) by openid-client. The reader's groups, and where they were going.
   */
  async finish(
    setting: OidcClientSetting,
    owner: string,
    query: { state: string; querystring: string },
    browserState: string | undefined,
  ): Promise<{ groups: string[]; subject: string; returnTo: string }> {
    const flow = query.state ? this.flows.get(query.state) : undefined;
    if (flow) this.flows.delete(query.state);
    if (!flow || flow.owner !== owner || browserState !== query.state || this.clock.now().getTime() - flow.startedAt > OIDC_FLOW_MS)
      throw new OidcSignInError('invalid-state');
    try {
      const client = await oidcClient();
      const config = await this.providerOf(setting);
      const current = new URL(`${flow.redirectUri}${query.querystring ? `?${query.querystring}` : ''}`);
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: query.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      const groups = readerGroups(await groupsClaim(client, config, setting, tokens, claims), setting.groupsDelimiter);
      return { groups, subject: claims.sub, returnTo: flow.returnTo };
    } catch {
      throw new OidcSignInError('refused', flow.returnTo);
    }
  }

  private providerOf(setting: OidcClientSetting): Promise<Client.Configuration> {
    const key = JSON.stringify([
      setting.issuer,
      setting.clientId,
      setting.clientSecret,
      setting.clientSecretFile,
      setting.allowInsecureIssuer,
    ]);
    let provider = this.providers.get(key);
    if (!provider) {
      provider = discover(setting);
      provider.catch(() => this.providers.delete(key));
      this.providers.set(key, provider);
    }
    return provider;
  }
}

async function groupsClaim(
  client: typeof Client,
  config: Client.Configuration,
  setting: OidcClientSetting,
  tokens: Client.TokenEndpointResponse,
  claims: Client.IDToken,
): Promise<unknown> {
  const claim = setting.groupsClaim;
  if (setting.groupsSource === 'id_token') return claims[claim];
  if (setting.groupsSource === 'access_token') return (await import('jose')).decodeJwt(tokens.access_token)[claim];
  if (setting.groupsSource === 'userinfo') return (await client.fetchUserInfo(config, tokens.access_token, claims.sub))[claim];
  const res = await fetch(setting.infoUrl ?? '', {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`infoUrl answered ${res.status}`);
  return ((await res.json()) as Record<string, unknown>)[claim];
}

async function discover(setting: OidcClientSetting): Promise<Client.Configuration> {
  const client = await oidcClient();
  const secret = setting.clientSecret ?? (await readFile(setting.clientSecretFile ?? '', 'utf8')).trim();
  return client.discovery(new URL(setting.issuer), setting.clientId, secret, undefined, {
    timeout: 5,
    ...(setting.allowInsecureIssuer ? { execute: [client.allowInsecureRequests] } : {}),
  });
}
