import { describe, expect, it } from 'vitest';
import { FollowError, statusMessage } from './follow';
import { followProblem } from './live';

/** What an API server answers pods/log for a pod that was deleted (kube-apiserver's Status). */
const NOT_FOUND = JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'pods "checkout-7d9f-abcde" not found',
  reason: 'NotFound',
  details: { name: 'checkout-7d9f-abcde', kind: 'pods' },
  code: 404,
});

describe('a follow the API server refused', () => {
  it('reads the Status message, never the raw JSON', () => {
    expect(statusMessage(NOT_FOUND)).toBe('pods "checkout-7d9f-abcde" not found');
    expect(statusMessage('  upstream connect error ')).toBe('upstream connect error');
    expect(statusMessage('x'.repeat(400))).toHaveLength(300);
  });

  it('says in one line that a gone client pod cannot be read any more', () => {
    const path = '/api/v1/namespaces/shop/pods/checkout-7d9f-abcde/log';
    const p = followProblem(
      'shop/checkout-7d9f-abcde',
      new FollowError(404, path, statusMessage(NOT_FOUND)),
    );
    expect(p).toEqual({
      source: 'shop/checkout-7d9f-abcde',
      gone: true,
      problem: 'client pod shop/checkout-7d9f-abcde is gone; its log can no longer be read',
    });
    expect(p.problem).not.toContain('{');
  });

  it('keeps any other refusal with its status and message', () => {
    const p = followProblem(
      'shop/checkout-1',
      new FollowError(403, '/api/v1/namespaces/shop/pods/checkout-1/log', 'forbidden'),
    );
    expect(p.gone).toBe(false);
    expect(p.problem).toBe('403 from /api/v1/namespaces/shop/pods/checkout-1/log: forbidden');
  });
});
