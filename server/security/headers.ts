/**
 * The security headers meshdx sends on every response (pages, API, static assets), and its
 * Content-Security-Policy. Scripts run only with the per-request nonce Next.js puts on its own
 * script tags (it reads the nonce back from the CSP request header the proxy sets);
 * 'strict-dynamic' lets those scripts load the page's chunks. Style elements need the nonce as
 * well; style attributes are allowed inline because React renders `style={...}` (recharts'
 * SVG, bar widths) as attributes, which no nonce can cover.
 */

export interface CspOptions {
  nonce: string;
  /** `next dev`: React needs eval for its error overlay, and HMR talks over a websocket. */
  dev?: boolean;
}

export function buildCsp({ nonce, dev = false }: CspOptions): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    [
      'script-src',
      ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    ],
    ['style-src', ["'self'", `'nonce-${nonce}'`]],
    ['style-src-elem', ["'self'", `'nonce-${nonce}'`]],
    ['style-src-attr', ["'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...(dev ? ['ws:', 'wss:'] : [])]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  if (dev) {
    // the dev overlay injects style elements without a nonce
    directives[2] = ['style-src', ["'self'", "'unsafe-inline'"]];
    directives[3] = ['style-src-elem', ["'self'", "'unsafe-inline'"]];
  }
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** A fresh, unguessable nonce (128 bits, base64) for one response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** Every header meshdx adds to every response, the CSP included. */
export function securityHeaders(csp: string): [string, string][] {
  return [
    ['Content-Security-Policy', csp],
    ['X-Frame-Options', 'DENY'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
  ];
}
