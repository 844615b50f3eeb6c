// Every mail the site sends, one module per subject. Each template returns a RenderedMail
// (subject, plain text, simple HTML) from a MailSite and the facts it needs; nothing reads a request.
export * from './account';
export * from './billing';
export * from './reports';
export * from './admin';
export * from './releases';
