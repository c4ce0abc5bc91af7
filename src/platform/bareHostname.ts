/**
 * A bare host name: dot-separated labels of letters, digits and inner dashes (at most 63
 * each, 253 in all); no scheme, port, path, trailing dot or slash — and so no character a
 * terminal or a URL would read as anything but a name.
 */
export const BARE_HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
