import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema, type Config } from './schema.js';

/** Configuration could not be loaded; `problems` lists every one found, not just the first. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The shipped defaults file, found relative to this module in both src/ and dist/. */
export const defaultConfigPath = resolve(dirname(fileURLToPath(import.meta.url)), '../../config/default.json');

/** Short environment names for the settings operators change most. */
const envAliases: Record<string, string[]> = {
  ENCLAVE_HOST: ['server', 'host'],
  ENCLAVE_PORT: ['server', 'port'],
  ENCLAVE_DATA_DIR: ['dataDir'],
  ENCLAVE_PUBLIC_URL: ['server', 'publicUrl'],
  ENCLAVE_LOG_LEVEL: ['logLevel'],
};

/**
 * ENCLAVE_* variables that are not settings: the CLI's connection, the config file's name and
 * what the agent command receives. Any other single-word ENCLAVE_* name must be a top-level
 * setting; a typo is refused rather than silently ignored.
 */
const nonSettingVariables = new Set([
  'ENCLAVE_CONFIG',
  'ENCLAVE_URL',
  'ENCLAVE_ADMIN_KEY',
  // What `enclave keys create --kind assistant` prints, for a script that evals it.
  'ENCLAVE_ASSISTANT_KEY',
  'ENCLAVE_PROJECT_ID',
  'ENCLAVE_PROMPT',
  'ENCLAVE_MODEL',
  'ENCLAVE_JOB_ID',
  // The code tokenizer's per-line time limit (src/render/code/lineTimeLimit.ts): tests lift it.
  'ENCLAVE_CODE_LINE_TIME_LIMIT_MS',
]);

type Json = Record<string, unknown>;

/**
 * Loads config/default.json, then the file named by ENCLAVE_CONFIG, then ENCLAVE_* variables
 * (aliases above, ENCLAVE_KEY for a top-level key such as ENCLAVE_SITES='[…]', or
 * ENCLAVE_SECTION__KEY for any key; NAME_FILE reads NAME from a file), and validates the result.
 * An ENCLAVE_* variable that names no setting is an error: a setting given in the environment is
 * applied or refused, never ignored.
 */
export function loadConfig(options: { env?: NodeJS.ProcessEnv; cwd?: string; defaultsPath?: string } = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const problems: string[] = [];

  let merged = readJsonFile(options.defaultsPath ?? defaultConfigPath, problems);
  const overridePath = env.ENCLAVE_CONFIG;
  if (overridePath) merged = deepMerge(merged, readJsonFile(resolve(cwd, overridePath), problems));
  const fromEnv = new Map<string, string>();
  merged = deepMerge(merged, envOverrides(env, problems, fromEnv));
  if (problems.length > 0) throw new ConfigError(problems);

  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const at = i.path.join('.');
        // A value the environment gave is named by its variable: the operator set ENCLAVE_PORT,
        // not server.port, and greps the environment for it.
        const variable = variableFor(i.path.map(String), fromEnv);
        return `${variable ? `${variable} (${at})` : at || '(root)'}: ${i.message}`;
      }),
    );
  }
  const config = parsed.data;
  config.dataDir = resolve(cwd, config.dataDir);
  for (const site of config.sites) site.source = resolve(cwd, site.source);
  return config;
}

function readJsonFile(path: string, problems: string[]): Json {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    problems.push(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return {};
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
    problems.push(`${path}: must hold a JSON object`);
  } catch (err) {
    problems.push(`${path}: not valid JSON (${(err as Error).message})`);
  }
  return {};
}

/** The environment variable that set `path` or a setting above it, if one did. */
function variableFor(path: string[], fromEnv: Map<string, string>): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const variable = fromEnv.get(path.slice(0, n).join('.'));
    if (variable) return variable;
  }
  return undefined;
}

/** The settings ENCLAVE_* variables give; `fromEnv` records which variable set which path. */
function envOverrides(env: NodeJS.ProcessEnv, problems: string[], fromEnv: Map<string, string>): Json {
  const out: Json = {};
  for (const [name, raw] of Object.entries(env)) {
    if (raw === undefined || !name.startsWith('ENCLAVE_')) continue;
    // NAME_FILE holds the path of a file with NAME's value: a secret given that way never sits
    // in the server's environment, where any process of the same user can read it (/proc/PID/environ).
    const fromFile = name.endsWith('_FILE') && name !== 'ENCLAVE_FILE';
    const base = fromFile ? name.slice(0, -'_FILE'.length) : name;
    if (nonSettingVariables.has(base)) continue;
    const path = envAliases[base] ?? base.slice('ENCLAVE_'.length).split('__').map(snakeToCamel);
    if (path.length === 1 && !(path[0] in configSchema.shape)) {
      problems.push(
        `${name}: not a setting (top-level settings: ${Object.keys(configSchema.shape).join(', ')}; nested ones are ENCLAVE_SECTION__KEY)`,
      );
      continue;
    }
    if (path.some((part) => part.length === 0)) {
      problems.push(`${name}: malformed variable name`);
      continue;
    }
    fromEnv.set(path.join('.'), name);
    if (!fromFile) {
      setPath(out, path, parseEnvValue(raw));
      continue;
    }
    try {
      setPath(out, path, parseEnvValue(readFileSync(raw, 'utf8').replace(/\r?\n$/, '')));
    } catch (err) {
      problems.push(`${name}: cannot read ${raw} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return out;
}

/** Numbers, booleans, null, arrays and objects may be given as JSON; anything else is a string. */
function parseEnvValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function snakeToCamel(part: string): string {
  return part.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function setPath(target: Json, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Json;
  }
  node[path[path.length - 1]] = value;
}

function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    const bothObjects =
      value && prev && typeof value === 'object' && typeof prev === 'object' && !Array.isArray(value) && !Array.isArray(prev);
    out[key] = bothObjects ? deepMerge(prev as Json, value as Json) : value;
  }
  return out;
}
