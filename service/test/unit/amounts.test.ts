// Exact decimal arithmetic on text: parsing, comparing with the largest i128, plain notation, raw
// units for a pull, and the JSON checks built on them (inexact numbers, NUL characters).
import { describe, expect, it } from 'vitest';
import {
  atMost,
  decimalPlaces,
  I128_MAX,
  parseDecimal,
  plainDecimal,
  rawUnits,
  sameDecimal,
} from '../../src/billing/amounts.ts';
import { checkJsonText } from '../../src/http/json-body.ts';
import { exactNumber } from '../../src/schemas/exact-number.ts';

const d = (s: string) => parseDecimal(s)!;

describe('decimal text', () => {
  it.each([
    ['10.5000000', '10.5'],
    ['0010', '10'],
    ['1e3', '1000'],
    ['1.5E-3', '0.0015'],
    ['+7', '7'],
    ['-0.0', '0'],
    ['.5', '0.5'],
    ['123456789012345678901234.1234567', '123456789012345678901234.1234567'],
  ])('%s reads as %s', (text, plain) => {
    expect(plainDecimal(d(text))).toBe(plain);
  });

  it('refuses what is not decimal notation', () => {
    for (const s of ['', ' ', '0x10', 'Infinity', '1e', '.', '1.2.3', '--1'])
      expect(parseDecimal(s), s).toBeUndefined();
  });

  it('compares with the largest i128 exactly', () => {
    const max = I128_MAX.toString();
    expect(atMost(d(max), I128_MAX)).toBe(true);
    expect(atMost(d(`${max}.0000000`), I128_MAX)).toBe(true);
    expect(atMost(d(`${max}.0000001`), I128_MAX)).toBe(false);
    expect(atMost(d((I128_MAX + 1n).toString()), I128_MAX)).toBe(false);
    expect(atMost(d('1.7e38'), I128_MAX)).toBe(true);
    expect(atMost(d('1.8e38'), I128_MAX)).toBe(false);
    expect(atMost(d('1e100000'), I128_MAX)).toBe(false);
    expect(decimalPlaces(d('1e-100000'))).toBe(100_000);
  });

  it('raw units: whole numbers from 1 to the largest i128 only', () => {
    expect(rawUnits('100000000')).toBe(100_000_000n);
    expect(rawUnits('10.0000000')).toBe(10n);
    expect(rawUnits(I128_MAX.toString())).toBe(I128_MAX);
    for (const s of ['10.5', '0', '-1', (I128_MAX + 1n).toString(), 'x']) expect(rawUnits(s), s).toBeUndefined();
  });

  it('sameDecimal ignores notation, not value', () => {
    expect(sameDecimal(d('1e21'), d('1000000000000000000000'))).toBe(true);
    // biome-ignore lint/correctness/noPrecisionLoss: the point: a JS number literal has already lost digits
    expect(sameDecimal(d('12345678901234567890'), d(String(12345678901234567890)))).toBe(false);
  });
});

describe('exact JSON numbers', () => {
  it('a number when the double holds the value, its literal otherwise', () => {
    expect(exactNumber('100000000')).toBe(100_000_000);
    expect(exactNumber('10.5000000')).toBe(10.5);
    expect(JSON.stringify({ a: exactNumber('0.0000001') })).toBe('{"a":0.0000001}');
    expect(JSON.stringify({ a: exactNumber('12345678901234567890') })).toBe('{"a":12345678901234567890}');
    expect(JSON.stringify({ a: exactNumber(I128_MAX.toString()) })).toBe(`{"a":${I128_MAX}}`);
  });

  it('request bodies: inexact numbers and NUL characters are refused with the field named', () => {
    expect(() => checkJsonText('{"a":1,"b":"x"}')).not.toThrow();
    expect(() => checkJsonText('{"a":9007199254740991}')).not.toThrow();
    expect(() => checkJsonText('{"a":1.5e3,"b":0.1}')).not.toThrow();
    expect(() => checkJsonText('{"token_amount":9007199254740993}')).toThrow(
      /^Invalid input on token_amount: 9007199254740993 cannot be held exactly/,
    );
    expect(() => checkJsonText('{"x":0.12345678901234567891}')).toThrow(/Invalid input on x/);
    expect(() => checkJsonText('{"name":"a\\u0000"}')).toThrow(
      'Invalid input on name: name must not contain NUL characters',
    );
    expect(() => checkJsonText('"\\u0000"')).toThrow('Invalid input on body: body must not contain NUL characters');
  });
});
