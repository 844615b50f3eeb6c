// Invented placeholder contact details; operators replace them before going live.
export const SITE_NAME = 'Media Site';
export const SITE_EMAIL = 'support@example.com';
export const RECORDS_EMAIL = 'records@example.com';
export const POSTAL_ADDRESS = ['Example Media Ltd.', '100 Placeholder Street, Suite 1', 'Example City, EX 00000', 'Exampleland'];
export const JOIN_FEE = '$14.99';
