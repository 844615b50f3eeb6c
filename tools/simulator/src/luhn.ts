export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A Luhn-valid test number with the given prefix and last four digits (the check digit sits before them). */
export function testCardNumber(lastFour: string, prefix = '41111111111'): string {
  for (let check = 0; check <= 9; check += 1) {
    const candidate = `${prefix}${check}${lastFour}`;
    if (luhnValid(candidate)) return candidate;
  }
  throw new Error(`no Luhn-valid number for ${prefix}?${lastFour}`);
}
