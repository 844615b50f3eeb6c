/**
 * What an operator's production environment amounts to, for tests that start from it and break one
 * thing. The values are made up here (random-looking, never published as examples).
 */
export const OPERATOR_KEYS = {
  a: 'q0Vb2m8XoZ3rT6yLp1NcWd4Hs7Ke9Gj5Af2Ui8Oa0Rx',
  b: '5d2c9e71a4b80f36c1e7d9a2b4f60e8317c5a9d2e4b6f80a1c3e5d7b9f2a4c6e',
};

export const OPERATOR_PROVIDER = {
  CCBILL_BASE_URL: 'https://api.ccbill.com',
  CCBILL_PUBLIC_BASE_URL: 'https://api.ccbill.com',
  CCBILL_CLIENT_ACCNUM: '945123',
  CCBILL_CLIENT_SUBACC: '0',
  CCBILL_FRONTEND_APP_ID: 'b1f2c3d4e5f6a7b8',
  CCBILL_FRONTEND_SECRET: 'Fr0nt-3nd.S3cr3t-9x7q',
  CCBILL_BACKEND_APP_ID: 'c9d8e7f6a5b4c3d2',
  CCBILL_BACKEND_SECRET: 'B4ck-3nd.S3cr3t-2k8w',
};
