/** The card provider's API version header (reference/ccbill.md): the bff, the SPA's chain and the simulator send or expect it. */
export const PROVIDER_ACCEPT = 'application/vnd.mcn.transaction-service.api.v.2+json';
