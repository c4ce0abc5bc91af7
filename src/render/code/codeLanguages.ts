/** Languages loaded when the highlighter is created: what docs use most (others load via `prepareLanguages`). */
export const PRELOADED_LANGUAGES = [
  'bash', 'shellscript', 'shellsession', 'powershell', 'json', 'jsonc', 'json5', 'jsonl', 'yaml', 'toml', 'ini', 'properties', 'dotenv',
  'javascript', 'typescript', 'jsx', 'tsx', 'python', 'go', 'rust', 'java', 'kotlin', 'groovy', 'c', 'cpp', 'csharp',
  'ruby', 'php', 'swift', 'html', 'css', 'sql', 'graphql', 'http', 'diff', 'markdown', 'mdx', 'xml', 'dockerfile',
];

/** Names that mean "no highlighting" in docs. */
export const PLAIN_LANGUAGES = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'none', 'output', 'log']);

/** Fence names docs use that aren't shiki ids or aliases. */
export const EXTRA_ALIASES: Record<string, string> = {
  env: 'dotenv',
  curl: 'bash',
  terminal: 'bash',
  cmd: 'bat',
  golang: 'go',
  'c#': 'csharp',
  'c++': 'cpp',
  gql: 'graphql',
  tf: 'hcl',
  terraform: 'hcl',
  protobuf: 'proto',
};

/** Human names for tab labels when a code block in a CodeGroup has no title. */
const DISPLAY_NAMES: Record<string, string> = {
  bash: 'Bash', shellscript: 'Shell', sh: 'Shell', shell: 'Shell', zsh: 'Shell', powershell: 'PowerShell', json: 'JSON', jsonc: 'JSON', yaml: 'YAML', yml: 'YAML',
  toml: 'TOML', javascript: 'JavaScript', js: 'JavaScript', typescript: 'TypeScript', ts: 'TypeScript', jsx: 'JSX', tsx: 'TSX',
  python: 'Python', py: 'Python', go: 'Go', rust: 'Rust', java: 'Java', kotlin: 'Kotlin', csharp: 'C#', cs: 'C#', cpp: 'C++', c: 'C',
  ruby: 'Ruby', rb: 'Ruby', php: 'PHP', swift: 'Swift', html: 'HTML', css: 'CSS', sql: 'SQL', graphql: 'GraphQL', http: 'HTTP',
  xml: 'XML', markdown: 'Markdown', md: 'Markdown', mdx: 'MDX', dockerfile: 'Dockerfile', diff: 'Diff', text: 'Text', dart: 'Dart',
};

/** A readable label for a language name (falls back to the name itself). */
export function languageDisplayName(lang: string | null | undefined): string {
  if (!lang) return 'Text';
  return DISPLAY_NAMES[lang.toLowerCase()] ?? lang;
}
