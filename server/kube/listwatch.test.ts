import { describe, expect, it } from 'vitest';
import { continueOfHead } from './listwatch';

describe('continueOfHead', () => {
  it('reads the token from the metadata before the items, as the API server writes a list', () => {
    const body = `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"eyJ2Ijoi","remainingItemCount":3},"items":[{"metadata":{"name":"a","annotations":{"continue":"no"}}}]}`;
    expect(continueOfHead(body)).toBe('eyJ2Ijoi');
  });

  it('is null on the last page, and never takes a value from inside the items', () => {
    expect(continueOfHead(`{"metadata":{"resourceVersion":"7"},"items":[]}`)).toBeNull();
    expect(
      continueOfHead(`{"items":[{"metadata":{"annotations":{"continue":"x"}}}],"metadata":{}}`),
    ).toBeNull();
    expect(continueOfHead(`{"metadata":{"continue":""},"items":[]}`)).toBeNull();
  });
});
