// node-postgres gets a split instead of its general array parser for integer[] (storage/db.ts).
import { describe, expect, it } from 'vitest';
import { parseIntArray } from '../../src/storage/db.ts';

describe('parseIntArray', () => {
  it('reads integer[] as PostgreSQL writes it', () => {
    expect(parseIntArray('{}')).toEqual([]);
    expect(parseIntArray('{86400}')).toEqual([86400]);
    expect(parseIntArray('{86400,259200,-3}')).toEqual([86400, 259200, -3]);
    expect(parseIntArray('{1,NULL,2}')).toEqual([1, null, 2]);
  });
});
