/**
 * The referrer and DNS-prefetch policies every exported HTML page declares in its own head, so
 * they hold on any static host and from `file://`, not only where the appliance sends them as
 * headers. The appliance recognises pages carrying this exact text at activation and leaves the
 * two headers off them (each header line costs every response and every client).
 */
export const DOCUMENT_POLICY_META = '<meta name="referrer" content="no-referrer"><meta http-equiv="x-dns-prefetch-control" content="off">';
