/**
 * The membership form the SPA sends to `/api/process_payment` with the default offer (bff/src/provider/config.ts:
 * $14.99 for 30 days, rebilling, US dollars) and a card expiring far ahead; tests add the card holder's
 * fields and any change of their own.
 */
export function membershipFormData(fields: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { initialPrice: '14.99', initialPeriod: '30', rebills: '99', currencyCode: '840', expiration: '12/31/2099', ...fields };
}
