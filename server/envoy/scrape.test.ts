import { describe, expect, it } from 'vitest';
import { keepWanted } from './scrape';

/** What keepWanted keeps, by the plain reading: split into lines, test each line's family. */
function byLines(text: string): string {
  const wanted =
    /^(envoy_cluster_manager_|envoy_listener_manager_total_listeners_active|envoy_server_(memory_allocated|state|initialization_time_ms)|istio_build)/;
  const kept = text.split('\n').filter((line) => {
    const name = line.startsWith('# ') ? (line.split(' ')[2] ?? '') : line;
    return wanted.test(name);
  });
  return kept.join('\n') + '\n';
}

const SCRAPE = [
  'envoy_cluster_manager_active_clusters{} 1042',
  '# TYPE envoy_cluster_upstream_rq counter',
  'envoy_cluster_upstream_rq{envoy_response_code="503",envoy_cluster_name="outbound|80||a.b.svc.cluster.local"} 7',
  '# HELP envoy_server_memory_allocated bytes',
  '# TYPE envoy_server_memory_allocated gauge',
  'envoy_server_memory_allocated{} 83886080',
  '# TYPE envoy_server_state gauge',
  'envoy_server_state{} 0',
  'envoy_server_uptime{} 3600',
  'xenvoy_cluster_manager_active_clusters{} 9',
  '# TYPE',
  '#',
  '',
  'envoy_listener_manager_total_listeners_active{} 12',
  '# TYPE envoy_server_initialization_time_ms histogram',
  'envoy_server_initialization_time_ms_bucket{le="0.5"} 0',
  'istio_build{component="proxy",tag="1.24.2"} 1',
].join('\n');

describe('keepWanted', () => {
  it('keeps the wanted families and their comments, the first line included', () => {
    const kept = keepWanted(SCRAPE).split('\n');
    expect(kept).toEqual([
      'envoy_cluster_manager_active_clusters{} 1042',
      '# HELP envoy_server_memory_allocated bytes',
      '# TYPE envoy_server_memory_allocated gauge',
      'envoy_server_memory_allocated{} 83886080',
      '# TYPE envoy_server_state gauge',
      'envoy_server_state{} 0',
      'envoy_listener_manager_total_listeners_active{} 12',
      '# TYPE envoy_server_initialization_time_ms histogram',
      'envoy_server_initialization_time_ms_bucket{le="0.5"} 0',
      'istio_build{component="proxy",tag="1.24.2"} 1',
      '',
    ]);
  });

  it('keeps what the line-by-line reading keeps, with CRLF, a last line without newline, and blanks', () => {
    for (const text of [
      SCRAPE,
      SCRAPE + '\n',
      SCRAPE.replaceAll('\n', '\r\n'),
      '\n\n' + SCRAPE + '\n\n',
      '',
      '# TYPE envoy_server_state',
      'envoy_server_state 1',
      '# TYPE envoy_server_state gauge\n# TYPE',
    ])
      expect(keepWanted(text)).toBe(byLines(text));
  });

  it('never reads a family name across a line end', () => {
    expect(keepWanted('# TYPE\nenvoy_server_state 1')).toBe('envoy_server_state 1\n');
    expect(keepWanted('# TYPE envoy_serv\ner_state 1')).toBe('\n');
  });
});
