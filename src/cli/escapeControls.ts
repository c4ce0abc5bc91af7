/**
 * Characters a terminal may act on instead of showing: C0 controls (ESC starts ANSI/OSC
 * sequences, CR rewrites the line, BEL…), DEL, C1 controls (U+009B is a one-byte CSI on some
 * terminals), the line/paragraph separators and the bidirectional overrides that make text
 * read differently than it is.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes a server-provided string safe to print: every control character becomes visible as
 * `\uXXXX`. That form is also a valid JSON escape, so JSON text passed through it stays valid
 * JSON with the same value. `keepNewlines` leaves `\n` alone (multi-line output, JSON indents).
 */
export function escapeControls(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? CONTROLS_BUT_NEWLINE : CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON for the terminal: `JSON.stringify` escapes C0 controls itself, but not DEL, C1 or bidi overrides. */
export function formatJson(value: unknown, indent: number | null = 2): string {
  return escapeControls(JSON.stringify(value, null, indent ?? undefined), { keepNewlines: true });
}
