/**
 * A reader's groups from a claim, read as the hosted product documents it: a list is taken as
 * it is (entries trimmed, empty ones dropped, never split); a string is split on `delimiter`
 * when one is configured (each part trimmed, empty parts dropped), else it is one group. Any
 * other value gives no groups.
 */
export function readerGroups(value: unknown, delimiter?: string): string[] {
  const parts = Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? delimiter
        ? value.split(delimiter)
        : [value]
      : [];
  return [...new Set(parts.map((p) => p.trim()).filter((p) => p !== ''))];
}
