const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `90s`, `15m`, `12h`, `30d` to milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+)([smhd])$/.exec(text.trim());
  return m ? Number(m[1]) * UNITS[m[2]] : null;
}
