/** A number with its sign always written, and a true minus sign: "+1.00", "−0.50" (planted and fitted weights). */
export function signedNumber(v: number, digits = 2): string {
  return (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(digits);
}
