/** A store file exists but cannot be loaded. Startup stops; the file is left untouched. */
export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Store file ${file} cannot be loaded: ${reason}. It was left untouched; restore it from a backup or move it aside.`);
    this.name = 'StoreFileError';
  }
}
