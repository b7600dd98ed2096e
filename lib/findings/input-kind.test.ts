import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { guessInputKind, inputKindHint } from './input-kind';

describe('what a non-manifest file looks like, and which command reads it', () => {
  it('names an Envoy config dump, a ztunnel dump and a /clusters answer', () => {
    expect(
      guessInputKind(readFixture('config_dump', 'istioctl-proxyconfig_all_types_config_dump.json')),
    ).toEqual({
      looksLike: 'an Envoy config dump (/config_dump)',
      command: 'meshdx clusters FILE',
    });
    expect(guessInputKind(readFixture('config_dump', 'ztunnel_config_dump.json'))?.looksLike).toBe(
      'a ztunnel config dump',
    );
    expect(
      guessInputKind(readFixture('clusters', 'istioctl_clusters_format_json.json'))?.command,
    ).toBe('meshdx clusters FILE');
  });

  it('names an access log of the istio.io docs', () => {
    const g = guessInputKind(readFixture('access_logs', 'istio-io-docs_text_multi-version.log'));
    expect(g?.command).toBe('meshdx accesslog FILE');
    expect(inputKindHint(g ?? { looksLike: '', command: '' }, 'a.log')).toBe(
      'it looks like an Envoy access log: meshdx accesslog a.log reads it',
    );
  });

  it('names a pod watch capture and kubectl describe text', () => {
    expect(
      guessInputKind('{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}}\n')?.command,
    ).toBe('meshdx attribute LOG --history FILE');
    const describe =
      'Name:             reviews-v1-5b5d6494f4-abcde\nNamespace:        default\nContainers:\n  reviews:\n';
    expect(guessInputKind(describe)?.looksLike).toMatch(/kubectl describe pod/);
  });

  it('guesses nothing for a manifest or plain text', () => {
    expect(guessInputKind('apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n')).toBeNull();
    expect(guessInputKind('hello\n')).toBeNull();
  });
});
