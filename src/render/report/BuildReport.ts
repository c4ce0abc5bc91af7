/** The shape of `_enclave/report.json` (SPEC section 4, "The bundle"). */
export interface BuildReport {
  pages: { expected: number; rendered: number; failed: { path: string; reason: string }[] };
  brokenLinks: { page: string; href: string; reason: string }[];
  missingImages: { page: string; src: string }[];
  unknownComponents: Record<string, number>;
  externalUrls: { page: string; url: string }[];
  warnings: { message: string; page?: string }[];
}
