import { describe, expect, it } from 'vitest';
import { parseMatrix } from './prom-matrix';

// Shapes as Prometheus 2.x/3.x answer /api/v1/query_range and /api/v1/query.
const matrix = {
  status: 'success',
  data: {
    resultType: 'matrix',
    result: [
      {
        metric: { destination_service: 'reviews.bookinfo.svc.cluster.local', response_code: '503' },
        values: [
          [1795722856.296, '4'],
          [1795722871.296, '7'],
        ],
      },
    ],
  },
};

describe('parseMatrix', () => {
  it('reads a matrix as series of [epoch ms, value]', () => {
    expect(parseMatrix(matrix)).toEqual({
      error: null,
      series: [
        {
          metric: {
            destination_service: 'reviews.bookinfo.svc.cluster.local',
            response_code: '503',
          },
          samples: [
            [1795722856296, 4],
            [1795722871296, 7],
          ],
        },
      ],
    });
  });

  it('reads a vector as one sample per series', () => {
    const vector = {
      status: 'success',
      data: {
        resultType: 'vector',
        result: [{ metric: { pod: 'cart-1' }, value: [1795722856.296, '1014'] }],
      },
    };
    expect(parseMatrix(vector).series).toEqual([
      { metric: { pod: 'cart-1' }, samples: [[1795722856296, 1014]] },
    ]);
  });

  it('names a failed query, another result type and a malformed answer', () => {
    expect(
      parseMatrix({ status: 'error', errorType: 'bad_data', error: 'parse error at char 5' }).error,
    ).toBe('Prometheus query failed: parse error at char 5');
    expect(
      parseMatrix({ status: 'success', data: { resultType: 'scalar', result: [1, '2'] } }).error,
    ).toBe('Prometheus answered a scalar, not series');
    for (const bad of [
      '<html>',
      null,
      { status: 'success', data: { resultType: 'matrix', result: [{ metric: { a: 1 } }] } },
      {
        status: 'success',
        data: { resultType: 'matrix', result: [{ metric: {}, values: [[1]] }] },
      },
      {
        status: 'success',
        data: { resultType: 'vector', result: [{ metric: {}, value: [1, 2] }] },
      },
    ])
      expect(parseMatrix(bad)).toEqual({
        series: [],
        error: 'Prometheus answer is not a query result',
      });
  });
});
