/** A version label: 1–64 letters, digits, dots, dashes or underscores, starting with a letter or digit. */
export const VERSION_LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why a string is not a version label, for validation messages. */
export const VERSION_LABEL_RULE = 'must be 1–64 letters, digits, dots, dashes or underscores';
