import { readFile } from 'node:fs/promises';
import type * as Client from 'openid-client';
import type { OidcReaderAuth } from '../../config/sections/readerAuth.js';
import { readerGroups } from './readerGroups.js';
import { safeReturnTo } from './safeReturnTo.js';
import { finishSignIn, type SignInRequest, signInAnswer } from './SignInRequest.js';

/** Where the provider sends the reader back, on the site's own origin. */
export const OIDC_CALLBACK_PATH = '/_enclave/auth/oidc-callback';
/** The cookie tying a sign-in's callback to the browser that started it (login CSRF). */
const FLOW_COOKIE = 'enclave_oidc_flow';
/** How long a started sign-in may take at the provider. */
const FLOW_MS = 10 * 60_000;
const MAX_FLOWS = 10_000;

/** A sign-in started and not yet finished, by its `state` (single use: taken when the callback comes). */
interface Flow {
  domain: string;
  verifier: string;
  nonce: string;
  returnTo: string;
  redirectUri: string;
  startedAt: number;
}

const flows = new Map<string, Flow>();
/** openid-client, loaded on the first OIDC sign-in: an appliance without OIDC sites never pays for it. */
const oidcClient = () => import('openid-client');
/** Discovered providers by setting (dropped on failure, so a provider back up is found again). */
const providers = new Map<string, Promise<Client.Configuration>>();

/**
 * Starts OpenID Connect sign-in (Authorization Code with PKCE, `state` and `nonce`): the
 * provider's discovery document is read (once), the flow remembered by its state, and the
 * reader sent to the provider. A provider that can't be reached gets a clear page (503);
 * nothing else on the site depends on it.
 */
export async function startOidcSignIn(request: SignInRequest<OidcReaderAuth>, returnTo: string): Promise<void> {
  const { ctx, setting, domain, deps } = request;
  let config: Client.Configuration;
  try {
    config = await providerOf(setting);
  } catch {
    return signInAnswer(request, 503, returnTo, 'The sign-in service cannot be reached right now. Try again in a moment.');
  }
  const now = deps.clock.now().getTime();
  for (const [state, flow] of flows) if (now - flow.startedAt > FLOW_MS || flows.size > MAX_FLOWS) flows.delete(state);
  const client = await oidcClient();
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const redirectUri = `${ctx.protocol}://${ctx.host}${OIDC_CALLBACK_PATH}`;
  flows.set(state, { domain, verifier, nonce, returnTo, redirectUri, startedAt: now });
  const scopes = [...new Set(['openid', ...setting.scopes])].join(' ');
  const url = client.buildAuthorizationUrl(config, {
    ...setting.authorizationParams,
    redirect_uri: redirectUri,
    scope: scopes,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  ctx.append(
    'Set-Cookie',
    `${FLOW_COOKIE}=${state}; Path=${OIDC_CALLBACK_PATH}; Max-Age=${FLOW_MS / 1000}; HttpOnly; SameSite=Lax${request.secure ? '; Secure' : ''}`,
  );
  ctx.status = 302;
  ctx.set('Location', url.href);
}

/**
 * The provider's way back: the `state` must be one this appliance started, for this site, in
 * this browser (its flow cookie), and not used before; the code is exchanged with the PKCE
 * verifier, and the ID token checked (issuer, audience, nonce, signature) by openid-client.
 * Groups come from the configured source and claim only.
 */
export async function finishOidcSignIn(request: SignInRequest<OidcReaderAuth>): Promise<void> {
  const { ctx, setting, domain } = request;
  const state = typeof ctx.query.state === 'string' ? ctx.query.state : '';
  const flow = state ? flows.get(state) : undefined;
  if (flow) flows.delete(state);
  ctx.append(
    'Set-Cookie',
    `${FLOW_COOKIE}=; Path=${OIDC_CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${request.secure ? '; Secure' : ''}`,
  );
  if (
    !flow ||
    flow.domain !== domain ||
    ctx.cookies.get(FLOW_COOKIE) !== state ||
    request.deps.clock.now().getTime() - flow.startedAt > FLOW_MS
  )
    return signInAnswer(request, 400, '/', 'This sign-in link is not valid (it was used already, has expired, or was started elsewhere).');
  try {
    const client = await oidcClient();
    const config = await providerOf(setting);
    const current = new URL(`${flow.redirectUri}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    const groups = readerGroups(await groupsClaim(client, config, setting, tokens, claims), setting.groupsDelimiter);
    // The ID token's own expiry is about the token (minutes), not the session: sessionHours rules.
    finishSignIn(request, groups, null, safeReturnTo(flow.returnTo));
  } catch {
    await signInAnswer(request, 401, flow.returnTo, 'Sign-in did not succeed. Try again.');
  }
}

async function groupsClaim(
  client: typeof Client,
  config: Client.Configuration,
  setting: OidcReaderAuth,
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

function providerOf(setting: OidcReaderAuth): Promise<Client.Configuration> {
  const key = JSON.stringify([
    setting.issuer,
    setting.clientId,
    setting.clientSecret,
    setting.clientSecretFile,
    setting.allowInsecureIssuer,
  ]);
  let provider = providers.get(key);
  if (!provider) {
    provider = discover(setting);
    provider.catch(() => providers.delete(key));
    providers.set(key, provider);
  }
  return provider;
}

async function discover(setting: OidcReaderAuth): Promise<Client.Configuration> {
  const client = await oidcClient();
  const secret = setting.clientSecret ?? (await readFile(setting.clientSecretFile ?? '', 'utf8')).trim();
  return client.discovery(new URL(setting.issuer), setting.clientId, secret, undefined, {
    timeout: 5,
    ...(setting.allowInsecureIssuer ? { execute: [client.allowInsecureRequests] } : {}),
  });
}
