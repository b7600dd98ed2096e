import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ParseProblem } from '../parse-problem';
import { ParseProblemSchema } from './parse-problem';

describe('ParseProblemSchema', () => {
  it('is the ParseProblem interface, field for field', () => {
    expectTypeOf<z.infer<typeof ParseProblemSchema>>().toEqualTypeOf<ParseProblem>();
  });

  it('accepts a problem about the whole input and refuses one without its sentence', () => {
    expect(
      ParseProblemSchema.parse({ line: 0, reason: 'empty', message: 'input is empty' }),
    ).toEqual({ line: 0, reason: 'empty', message: 'input is empty' });
    expect(ParseProblemSchema.safeParse({ line: 2, reason: 'truncated' }).success).toBe(false);
  });
});
