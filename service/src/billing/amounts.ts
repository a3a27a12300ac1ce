// Amounts stay exact decimal text from the request to `numeric` and back; these pure helpers read
// that text without ever going through a float. A decimal is sign, digits and a power of ten.

/** The largest i128: the vault and the token count raw units in i128. */
export const I128_MAX = (1n << 127n) - 1n;
/** The token has 7 decimals; token_amount may carry at most that many decimal places. */
export const MAX_DECIMAL_PLACES = 7;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export interface Decimal {
  negative: boolean;
  /** Significant digits without leading or trailing zeros; '' for zero. */
  digits: string;
  /** value = digits × 10^exponent. */
  exponent: number;
}

/** undefined when the text is not decimal notation (hex, Infinity, blank, …). */
export function parseDecimal(text: string): Decimal | undefined {
  const m = DECIMAL.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const [, sign, whole, fraction = '', exp = '0'] = m;
  // An exponent beyond any sane amount is still read exactly, as a huge number of places.
  const e = Number(exp);
  if (!Number.isSafeInteger(e)) return undefined;
  const all = (whole + fraction).replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  const exponent = e - fraction.length + (all.length - digits.length);
  return { negative: sign === '-' && digits !== '', digits, exponent: digits === '' ? 0 : exponent };
}

export const sameDecimal = (a: Decimal, b: Decimal) =>
  a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;

/** Digits after the decimal point once written in plain notation. */
export const decimalPlaces = (d: Decimal) => Math.max(0, -d.exponent);

/** The value is at most `max` (a non-negative integer), compared exactly. */
export function atMost(d: Decimal, max: bigint): boolean {
  if (d.negative || d.digits === '') return true;
  const integerDigits = d.digits.length + d.exponent;
  const maxDigits = max.toString().length;
  if (integerDigits !== maxDigits) return integerDigits < maxDigits;
  // Same number of integer digits: compare the integer part, then any fraction makes it larger.
  const whole = BigInt(d.exponent >= 0 ? d.digits + '0'.repeat(d.exponent) : d.digits.slice(0, integerDigits));
  return whole < max || (whole === max && d.exponent >= 0);
}

/** Plain notation, no exponent, no superfluous zeros: "1e3" → "1000", "10.5000000" → "10.5". */
export function plainDecimal(d: Decimal): string {
  if (d.digits === '') return '0';
  const sign = d.negative ? '-' : '';
  if (d.exponent >= 0) return sign + d.digits + '0'.repeat(d.exponent);
  const point = d.digits.length + d.exponent;
  return point > 0
    ? `${sign}${d.digits.slice(0, point)}.${d.digits.slice(point)}`
    : `${sign}0.${'0'.repeat(-point)}${d.digits}`;
}

/** Raw units for a pull: a whole number from 1 to I128_MAX, else undefined. */
export function rawUnits(text: string): bigint | undefined {
  const d = parseDecimal(text);
  if (!d || d.negative || d.digits === '' || d.exponent < 0 || !atMost(d, I128_MAX)) return undefined;
  return BigInt(plainDecimal(d));
}
