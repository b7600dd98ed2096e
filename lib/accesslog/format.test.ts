import { describe, expect, it } from 'vitest';
import { compileFormat, unreadableFormat } from './format';
import { ISTIO_FORMATS, PREFIX_FORMAT } from './formats';

describe('compileFormat: operators Envoy does not have', () => {
  it('names an unknown %OPERATOR% as a problem, where it stands', () => {
    const { problems } = compileFormat('%START_TIME% %BOGUS% %RESPONSE_CODE%');
    expect(problems).toEqual([
      expect.objectContaining({
        reason: 'unknown-operator',
        line: 1,
        column: 14,
        message: expect.stringContaining('%BOGUS%'),
      }),
    ]);
  });

  it('a format of plain words has no operator: nothing of a line would be read', () => {
    const { problems } = compileFormat('plain words');
    expect(problems.map((p) => p.reason)).toEqual(['no-operators']);
  });

  it("takes every operator of Istio's and Envoy's formats, and Envoy's others (headers, metadata, durations)", () => {
    for (const f of [...ISTIO_FORMATS, PREFIX_FORMAT])
      expect(
        compileFormat(f.source, f.id).problems.filter((p) => p.reason === 'unknown-operator'),
        f.id,
      ).toEqual([]);
    const wide =
      '%REQ(:AUTHORITY)% %RESP(GRPC-STATUS)% %TRAILER(GRPC-MESSAGE)% %DYNAMIC_METADATA(istio.mixer:status)% ' +
      '%FILTER_STATE(istio.peer)% %UPSTREAM_METADATA(istio:canonical_service)% %REQUEST_DURATION% ' +
      '%RESPONSE_TX_DURATION% %UPSTREAM_HOST_NAME% %DOWNSTREAM_PEER_URI_SAN% %CONNECTION_ID% %HOSTNAME% ' +
      '%ENVIRONMENT(HOME)% %GRPC_STATUS% %TRACE_ID% %UPSTREAM_REQUEST_ATTEMPT_COUNT% %START_TIME(%s)%';
    expect(compileFormat(wide).problems.filter((p) => p.reason === 'unknown-operator')).toEqual([]);
  });
});

describe("unreadableFormat: refused only when no operator of it is Envoy's", () => {
  it('refuses a format of unknown operators, or of none', () => {
    expect(unreadableFormat(compileFormat('%BOGUS%'))?.map((p) => p.reason)).toEqual([
      'unknown-operator',
    ]);
    expect(unreadableFormat(compileFormat('plain words'))?.map((p) => p.reason)).toEqual([
      'no-operators',
    ]);
  });

  it("reads Istio's format with an operator newer than meshdx's list, that field as text", () => {
    const source = `${ISTIO_FORMATS[0]?.source ?? ''} %UPSTREAM_PEER_FINGERPRINT_256X%`;
    const result = compileFormat(source);
    expect(result.problems.map((p) => p.reason)).toContain('unknown-operator');
    expect(unreadableFormat(result)).toBeNull();
  });
});
