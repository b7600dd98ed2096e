/**
 * The validity period of the first certificate of a PEM text, read as istiod's
 * xds.ValidateCertificate reads it (pem.Decode of the first block, then the certificate's
 * notBefore and notAfter), in plain TypeScript (lib/ runs in the browser too: no node:crypto).
 * Only the DER structure up to the validity is read: a certificate whose later parts (key,
 * extensions) are broken is taken as readable here, where Go's x509 parser would refuse it.
 */

export interface CertificateValidity {
  notBefore: Date;
  notAfter: Date;
}

/** The DER bytes of the first PEM block, or null when there is none or it is not base64. */
function firstPemBlock(text: string): Uint8Array | null {
  const m = /-----BEGIN ([^\r\n]*?)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  if (m === null) return null;
  const body = (m[2] ?? '')
    .split(/\r?\n/)
    .filter((l) => !l.includes(':'))
    .join('')
    .replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) return null;
  try {
    const bin = atob(body);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

/** The DER element at `at` (tag, content start and end), or null when it overruns `limit`. */
function tlv(der: Uint8Array, at: number, limit: number): Tlv | null {
  if (at + 2 > limit) return null;
  const tag = der[at] ?? 0;
  let len = der[at + 1] ?? 0;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > limit) return null;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (der[start + i] ?? 0);
    start += n;
  }
  const end = start + len;
  return end > limit ? null : { tag, start, end };
}

/** A UTCTime (0x17) or GeneralizedTime (0x18) as a Date, or null. */
function derTime(der: Uint8Array, t: Tlv): Date | null {
  const s = String.fromCharCode(...der.subarray(t.start, t.end));
  const m =
    t.tag === 0x17
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s)
      : t.tag === 0x18
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s)
        : null;
  if (m === null) return null;
  const [, y = '', mo = '', d = '', h = '', mi = '', se = ''] = m;
  let year = Number(y);
  if (t.tag === 0x17) year += year < 50 ? 2000 : 1900;
  const ms = Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** The validity of the first certificate of the PEM text; null when it cannot be read. */
export function certificateValidity(pem: string): CertificateValidity | null {
  const der = firstPemBlock(pem);
  if (der === null) return null;
  const cert = tlv(der, 0, der.length);
  if (cert === null || cert.tag !== 0x30) return null;
  const tbs = tlv(der, cert.start, cert.end);
  if (tbs === null || tbs.tag !== 0x30) return null;
  let at = tbs.start;
  const next = (): Tlv | null => {
    const e = tlv(der, at, tbs.end);
    if (e !== null) at = e.end;
    return e;
  };
  let e = next();
  if (e?.tag === 0xa0) e = next(); // [0] version
  if (e?.tag !== 0x02) return null; // serialNumber
  if (next()?.tag !== 0x30) return null; // signature algorithm
  if (next()?.tag !== 0x30) return null; // issuer
  const validity = next();
  if (validity?.tag !== 0x30) return null;
  const nb = tlv(der, validity.start, validity.end);
  const na = nb === null ? null : tlv(der, nb.end, validity.end);
  if (nb === null || na === null) return null;
  const notBefore = derTime(der, nb);
  const notAfter = derTime(der, na);
  return notBefore === null || notAfter === null ? null : { notBefore, notAfter };
}
