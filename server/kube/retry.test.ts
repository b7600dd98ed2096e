import { describe, expect, it } from 'vitest';
import { backoffMs, retriesRead, retryAfterMs } from './retry';

describe('retryAfterMs', () => {
  it('reads delta seconds and HTTP dates, 1 s when absent', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(undefined)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
  });
});

describe('retriesRead', () => {
  it('retries reads after resets and API-server 5xx, never writes, watches or pods/proxy 5xx', () => {
    expect(retriesRead('GET', 'list', { code: 'ECONNRESET' })).toBe(true);
    expect(retriesRead('GET', 'get', { status: 503 })).toBe(true);
    expect(retriesRead('GET', 'get', { status: 404 })).toBe(false);
    expect(retriesRead('POST', 'other', { code: 'ECONNRESET' })).toBe(false);
    expect(retriesRead('GET', 'proxy', { status: 502 })).toBe(false);
    expect(retriesRead('GET', 'proxy', { code: 'ECONNRESET' })).toBe(true);
    expect(retriesRead('GET', 'watch', { status: 500 })).toBe(false);
  });
  it('backs off exponentially with bounded jitter', () => {
    expect(backoffMs(1, () => 0.5)).toBe(200);
    expect(backoffMs(3, () => 0.5)).toBe(800);
    expect(backoffMs(10, () => 1)).toBe(3600);
  });
});
