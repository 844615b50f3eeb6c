// Build-time settings (Vite env); the frontend bearer only lets the browser create a payment token.
export const paymentConfig = {
  providerBase: String(import.meta.env.VITE_PAYMENT_PROVIDER_BASE ?? 'https://api.ccbill.com'),
  clientAccnum: Number(import.meta.env.VITE_PAYMENT_CLIENT_ACCNUM ?? 900000),
  clientSubacc: Number(import.meta.env.VITE_PAYMENT_CLIENT_SUBACC ?? 0),
  // Spec §9: a payment token lives 30 hours and may be used 3 times.
  timeToLive: 30,
  validNumberOfUse: 3,
};
