import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { POSTAL_ADDRESS, SITE_EMAIL } from '../../../config/site';

export function ContactPage() {
  const mail = <a href={`mailto:${SITE_EMAIL}`}>{SITE_EMAIL}</a>;
  return (
    <article className="prose">
      <h1>Contact</h1>
      <h2>Postal address</h2>
      <address>
        {POSTAL_ADDRESS.map((line) => (
          <span key={line} className="address-line">
            {line}
          </span>
        ))}
      </address>
      <h2>Membership support</h2>
      <p>For help with logging in, billing or your membership, e-mail {mail}.</p>
      <h2>Reporting content</h2>
      <p>
        If you believe any content on this site is illegal, was published without consent, or infringes your rights, use the form below (or
        e-mail {mail}) with the page address, a description of the content and the reason for your report. You do not need an account to
        report content. You receive a reference number at once.
      </p>
      {/* The report form is a child route (features/reports), loaded with this page. */}
      <Suspense fallback={<p>Loading...</p>}>
        <Outlet />
      </Suspense>
      <h2>Review process</h2>
      <p>
        We acknowledge every report within 48 hours. A reviewer examines the content and the records we hold for it, and we aim to resolve
        the report within seven business days. Content under review may be taken down while we check it.
      </p>
      <h2>Appeals</h2>
      <p>
        If you disagree with our decision, open the appeal page at /reports/{'{'}your reference{'}'}/appeal (linked from the confirmation
        you received) or reply to our answer with the reasons for your appeal. A different reviewer will decide the appeal within 14
        business days.
      </p>
      <h2>Outcomes</h2>
      <p>
        A report can lead to the content being removed, restricted or edited, or to no action when it complies with our policies and the
        law. We tell the reporter the outcome.
      </p>
      <h2>Confidentiality</h2>
      <p>
        Reports are handled confidentially. We share the reporter&apos;s identity only when the law requires it, and never with the person
        who uploaded or appears in the content without the reporter&apos;s consent.
      </p>
    </article>
  );
}
