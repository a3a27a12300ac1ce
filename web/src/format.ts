// Amounts in raw units shown with the token's decimals, exactly (bigint, never a float), and
// intervals in words.

export function formatUnits(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const abs = negative ? -raw : raw;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const frac = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''}`;
}

const UNITS: [number, string][] = [
  [31_536_000, 'year'],
  [2_592_000, 'month'],
  [604_800, 'week'],
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** "every month", "every 2 weeks", "every 90 minutes" — the largest unit that divides exactly. */
export function intervalWords(seconds: number): string {
  const [size, name] = UNITS.find(([s]) => seconds % s === 0) ?? [1, 'second'];
  const n = seconds / size;
  return n === 1 ? `every ${name}` : `every ${n} ${name}s`;
}

export const shortAddress = (a: string) => (a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-6)}` : a);

export const dateTime = (iso: string | null | undefined) =>
  iso
    ? `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`
    : '—';
