import type { AccessEntry } from '../types';
import { accessLogTime } from './time';

export type { AccessEntry };

const q = (s: string | undefined): string => `"${s ?? '-'}"`;
const d = (s: string | number | undefined): string => (s === undefined ? '-' : String(s));

/** Istio's default TEXT format (1.9+), field for field. */
export function textLine(e: AccessEntry): string {
  return [
    `[${accessLogTime(e.at)}]`,
    `"${e.method} ${e.path} ${e.protocol}"`,
    e.code,
    e.flags,
    e.details,
    d(e.termination),
    q(e.transportFailure),
    e.bytesIn,
    e.bytesOut,
    e.duration,
    d(e.upstreamTime),
    q(undefined),
    q(e.userAgent),
    q(e.requestId),
    q(e.authority),
    q(e.upstreamHost),
    e.upstreamCluster,
    d(e.upstreamLocal),
    e.downstreamLocal,
    e.downstreamRemote,
    d(e.sni),
    d(e.route),
  ].join(' ');
}

/** Istio's JSON access-log encoding (accessLogEncoding: JSON). */
export function jsonLine(e: AccessEntry): string {
  return JSON.stringify({
    start_time: accessLogTime(e.at),
    method: e.method,
    path: e.path,
    protocol: e.protocol,
    response_code: e.code,
    response_flags: e.flags,
    response_code_details: e.details,
    connection_termination_details: e.termination ?? null,
    upstream_transport_failure_reason: e.transportFailure ?? null,
    bytes_received: e.bytesIn,
    bytes_sent: e.bytesOut,
    duration: e.duration,
    upstream_service_time: e.upstreamTime !== undefined ? String(e.upstreamTime) : null,
    x_forwarded_for: null,
    user_agent: e.userAgent,
    request_id: e.requestId,
    authority: e.authority,
    upstream_host: e.upstreamHost ?? null,
    upstream_cluster: e.upstreamCluster,
    upstream_local_address: e.upstreamLocal ?? null,
    downstream_local_address: e.downstreamLocal,
    downstream_remote_address: e.downstreamRemote,
    requested_server_name: e.sni ?? null,
    route_name: e.route ?? null,
  });
}

export type FailureKind = 'UC' | 'UF' | 'URX';

/** The fields that distinguish each phantom-503 signature. */
export function failureFields(
  kind: FailureKind,
): Pick<
  AccessEntry,
  'code' | 'flags' | 'details' | 'transportFailure' | 'bytesOut' | 'upstreamTime'
> {
  switch (kind) {
    case 'UC':
      return {
        code: 503,
        flags: 'UC',
        details: 'upstream_reset_before_response_started{connection_termination}',
        bytesOut: 95,
      };
    case 'UF':
      return {
        code: 503,
        flags: 'UF',
        details:
          'upstream_reset_before_response_started{remote_connection_failure,delayed_connect_error:_Connection_refused}',
        transportFailure: 'delayed_connect_error:_Connection_refused',
        bytesOut: 91,
      };
    case 'URX':
      return { code: 503, flags: 'URX', details: 'via_upstream', bytesOut: 19, upstreamTime: 2 };
  }
}
