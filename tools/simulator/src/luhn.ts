import { luhnValid } from '@media-site/contracts/card';

export { luhnValid };

/** A Luhn-valid test number with the given prefix and last four digits (the check digit sits before them). */
export function testCardNumber(lastFour: string, prefix = '41111111111'): string {
  for (let check = 0; check <= 9; check += 1) {
    const candidate = `${prefix}${check}${lastFour}`;
    if (luhnValid(candidate)) return candidate;
  }
  throw new Error(`no Luhn-valid number for ${prefix}?${lastFour}`);
}
