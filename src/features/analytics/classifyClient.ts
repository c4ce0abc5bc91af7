/** How a request's client is counted: a person, an AI agent or crawler, or not at all. */
export type ClientKind = 'human' | 'ai' | 'ignored';

/**
 * AI agents, assistants fetching for a user, and crawlers (search engines feed AI answers too).
 * Matched as whole tokens of the user agent, case-insensitively.
 */
const AI_AGENTS =
  /\b(GPTBot|ChatGPT-User|OAI-SearchBot|ClaudeBot|Claude-User|Claude-SearchBot|Claude-Web|anthropic-ai|PerplexityBot|Perplexity-User|Google-Extended|GoogleOther|Googlebot|bingbot|CCBot|Bytespider|Amazonbot|Applebot|meta-externalagent|FacebookBot|cohere-ai|Diffbot|YouBot|DuckDuckBot|DuckAssistBot|Baiduspider|YandexBot|MistralAI-User|AI2Bot|Timpibot|PetalBot)\b|bot\/|crawler|spider/i;

/**
 * Tools and probes that are neither a reader nor an AI agent: health checks, monitoring,
 * HTTP libraries and command-line clients. Counting them would make an idle site look busy.
 */
const NON_BROWSERS =
  /^(curl|Wget|python-requests|python-urllib|Python\/|aiohttp|httpx|Go-http-client|libwww-perl|HTTPie|okhttp|Java\/|Apache-HttpClient|node-fetch|undici|axios|got|kube-probe|ELB-HealthChecker|GoogleHC|Prometheus|Blackbox|Uptime|Pingdom|StatusCake|Zabbix|check_http|Consul|HealthCheck|Docker|Wget2|PowerShell|Ruby|Faraday|Dart|Deno|Bun)\b/i;

/**
 * Sorts a client by its User-Agent. Every fetch of a Markdown copy or llms.txt is `ai`
 * whatever the agent (`machineCopy`): those files exist for machines, and agents often fetch
 * them through plain HTTP libraries. Otherwise a known AI agent or crawler is `ai`; no user
 * agent, a known tool or probe, or anything not claiming to be a browser is `ignored`; the
 * rest is `human`.
 */
export function classifyClient(userAgent: string | undefined, machineCopy: boolean): ClientKind {
  if (machineCopy) return 'ai';
  const ua = userAgent ?? '';
  // Most traffic comes from a few dozen user agents: the regexes run once per agent, not per page.
  let kind = known.get(ua);
  if (kind === undefined) {
    kind = classifyAgent(ua.trim());
    if (known.size >= KNOWN_AGENTS) known.clear();
    // Real agents are a few hundred characters; a made-up kilobytes-long one isn't kept.
    if (ua.length <= 512) known.set(ua, kind);
  }
  return kind;
}

const KNOWN_AGENTS = 1000;
const known = new Map<string, ClientKind>();

function classifyAgent(ua: string): ClientKind {
  if (AI_AGENTS.test(ua)) return 'ai';
  if (ua === '' || NON_BROWSERS.test(ua)) return 'ignored';
  return /^Mozilla\/|^Opera\//.test(ua) ? 'human' : 'ignored';
}
