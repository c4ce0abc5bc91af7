/**
 * Escapes text for HTML element content and double-quoted attribute values. C0 control
 * characters other than tab, line feed and carriage return are dropped: HTML and XML text can't
 * carry them, and the page templates use two of them as placeholders (see ROOT_MARK).
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : c === "'" ? '&#39;' : '',
  );
}
