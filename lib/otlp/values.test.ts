import { describe, expect, it } from 'vitest';
import { anyValueToJson, attributesToObject, unixNanoToMs } from './values';

describe('OTLP values', () => {
  it('turns AnyValues into JSON values', () => {
    expect(anyValueToJson({ intValue: '503' })).toBe(503);
    expect(anyValueToJson({ intValue: '9223372036854775807' })).toBe('9223372036854775807');
    expect(
      anyValueToJson({ arrayValue: { values: [{ stringValue: 'a' }, { boolValue: false }] } }),
    ).toEqual(['a', false]);
    expect(
      attributesToObject([
        {
          key: 'a',
          value: { kvlistValue: { values: [{ key: 'b', value: { doubleValue: 1.5 } }] } },
        },
        { key: '', value: { stringValue: 'no key' } },
      ]),
    ).toEqual({ a: { b: 1.5 } });
  });

  it('reads fixed64 nanoseconds as epoch ms, 0 and junk as unknown', () => {
    expect(unixNanoToMs('1709632801250999999')).toBe(1709632801250);
    expect(unixNanoToMs(1709632801250000000)).toBe(1709632801250);
    expect(unixNanoToMs('0')).toBeNull();
    expect(unixNanoToMs('12a')).toBeNull();
    expect(unixNanoToMs(undefined)).toBeNull();
  });
});
