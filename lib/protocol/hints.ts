import type { Pod } from '../kube/types';
import type { TargetPort } from './select';

/**
 * Server-first protocols: the server speaks first after the TCP handshake, so a proxy that waits
 * for the client's first bytes to sniff the protocol deadlocks with it. PostgreSQL, Redis and
 * MongoDB are client-first and are not listed.
 */
export const SERVER_FIRST_PORTS: Readonly<Record<number, string>> = {
  21: 'FTP',
  25: 'SMTP',
  110: 'POP3',
  143: 'IMAP',
  587: 'SMTP',
  3306: 'MySQL',
  4222: 'NATS',
};

const SERVER_FIRST_WORDS: readonly [RegExp, string][] = [
  [/(^|[^a-z])(mysql|mariadb|percona)([^a-z]|$)/, 'MySQL'],
  [/(^|[^a-z])(smtp|postfix|exim|mailhog|mailpit)([^a-z]|$)/, 'SMTP'],
  [/(^|[^a-z])(ftp|vsftpd|proftpd)([^a-z]|$)/, 'FTP'],
  [/(^|[^a-z])(imap|pop3|dovecot)([^a-z]|$)/, 'IMAP/POP3'],
  [/(^|[^a-z])nats([^a-z]|$)/, 'NATS'],
];

function wordHint(text: string | undefined): string | null {
  if (text === undefined) return null;
  const lower = text.toLowerCase();
  for (const [re, proto] of SERVER_FIRST_WORDS) if (re.test(lower)) return proto;
  return null;
}

export interface ServerFirstHint {
  protocol: string;
  /** What gave it away: port, targetPort, containerPort name, or image. */
  by: 'port' | 'targetPort' | 'containerPortName' | 'image';
  value: string;
}

/** Why a Service port probably carries a server-first protocol, or null. */
export function serverFirstHint(
  port: number,
  target: TargetPort,
  pod: Pod | undefined,
): ServerFirstHint | null {
  const byTarget = target.number === null ? undefined : SERVER_FIRST_PORTS[target.number];
  if (byTarget !== undefined) {
    return { protocol: byTarget, by: 'targetPort', value: String(target.number) };
  }
  const byPort = SERVER_FIRST_PORTS[port];
  if (byPort !== undefined) return { protocol: byPort, by: 'port', value: String(port) };
  const byName = wordHint(target.containerPortName);
  if (byName !== null && target.containerPortName !== undefined) {
    return { protocol: byName, by: 'containerPortName', value: target.containerPortName };
  }
  const ctr = pod?.spec.containers.find((c) => c.name === target.container);
  const image = ctr?.image;
  const byImage = wordHint(image?.split('/').pop()?.split(/[:@]/)[0]);
  if (byImage !== null && image !== undefined)
    return { protocol: byImage, by: 'image', value: image };
  return null;
}

/** The protocol to declare for a sniffed port, from what the pod says about it. */
export function suggestProtocol(port: number, target: TargetPort, serverFirst: boolean): string {
  if (serverFirst) return 'tcp';
  const n = target.containerPortName?.toLowerCase() ?? '';
  const prefix = /^(http2|https|http|grpc-web|grpc|tls|tcp)(-|$)/.exec(n)?.[1];
  if (prefix !== undefined) return prefix;
  const num = target.number ?? port;
  if ([443, 8443].includes(num)) return 'https';
  if ([80, 8000, 8080, 8081, 3000, 5000, 9080].includes(num) || [80, 8080].includes(port)) {
    return 'http';
  }
  return 'tcp';
}
