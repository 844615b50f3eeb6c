import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Field, InputField, TextAreaField } from '../../../components/Field';
import { SubmitWithStatus, useFormSubmit } from '../../../components/FormSubmit';
import { ReportApiError, type ReportStatus } from '../api/request';
import { submitReport } from '../api/submitReport';
import { CONTENT_MAX, DETAILS_MAX, EMAIL_MAX, REPORT_REASONS, type ReportReason } from '../reasons';
import { utcDate } from './dates';

export function messageFor(error: unknown): string {
  if (error instanceof ReportApiError && error.status === 429)
    return 'Too many submissions from your connection. Wait a minute and try again.';
  if (error instanceof ReportApiError && error.status < 500) return error.message;
  return `Error: ${error instanceof Error ? error.message : 'the report could not be sent'}. Please try again, or e-mail us.`;
}

/** The optional address a reporter or appellant can leave to hear the outcome. */
export function ReplyEmailField({
  id,
  label,
  value,
  onValue,
}: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <InputField
      id={id}
      label={label}
      name="email"
      type="email"
      autoComplete="email"
      maxLength={EMAIL_MAX}
      value={value}
      onValue={onValue}
    />
  );
}

function Receipt({ report }: { report: ReportStatus }) {
  return (
    <div className="report-receipt" role="status">
      <h3>Report received</h3>
      <p>
        Your reference number is <strong data-testid="report-reference">{report.reference}</strong>. Keep it: you need it to follow up or to
        appeal.
      </p>
      <ul>
        <li>We acknowledge your report within 48 hours, by {utcDate(report.acknowledgeBy)}.</li>
        <li>We resolve it within seven business days, by {utcDate(report.resolveBy)}.</li>
        <li>
          If you disagree with the outcome, you can <Link to={`/reports/${report.reference}/appeal`}>appeal</Link>; appeals are decided
          within {report.appealBusinessDays} business days.
        </li>
      </ul>
    </div>
  );
}

/** An item page's own address handed over by its "Report this" link (`?item=/video/...`): a site path only. */
const ITEM = /^\/(?:video|vod|photos|models|members\/photos|members\/freephotos)\/[^\s?#]+$/;

export function reportedItem(value: string | null): string {
  return value !== null && value.length <= CONTENT_MAX && ITEM.test(value) ? value : '';
}

/**
 * The content-report form on /contact (docs/compliance.md). Opened from an item's "Report this"
 * link, the item's address is filled in and the form is brought into view.
 */
export function ReportForm() {
  const [params] = useSearchParams();
  const item = reportedItem(params.get('item'));
  const [content, setContent] = useState(item);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (item) form.current?.scrollIntoView?.({ block: 'start' });
  }, [item]);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [email, setEmail] = useState('');
  const { busy, message, submit } = useFormSubmit();
  const [receipt, setReceipt] = useState<ReportStatus | null>(null);

  function onSubmit(event: FormEvent) {
    // The select is required: a browser never sends without a reason; this keeps the type honest.
    if (reason === '') return event.preventDefault();
    const report = { content: content.trim(), reason, details: details.trim(), email: email.trim() };
    void submit(event, async () => setReceipt(await submitReport(report)), messageFor);
  }

  if (receipt) return <Receipt report={receipt} />;
  return (
    <form ref={form} className="form" aria-labelledby="report-form-title" onSubmit={onSubmit}>
      <h3 id="report-form-title">Report content</h3>
      <InputField
        id="report-content"
        label="Address of the page or file"
        name="content"
        required
        maxLength={CONTENT_MAX}
        placeholder="/video/... or https://..."
        value={content}
        onValue={setContent}
      />
      <Field id="report-reason" label="Reason">
        <select id="report-reason" name="reason" required value={reason} onChange={(e) => setReason(e.target.value as ReportReason)}>
          <option value="" disabled>
            Choose a reason
          </option>
          {REPORT_REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </Field>
      <TextAreaField
        id="report-details"
        label="Details"
        name="details"
        required
        rows={6}
        cols={60}
        maxLength={DETAILS_MAX}
        aria-describedby="report-details-count"
        value={details}
        onValue={setDetails}
      >
        <span id="report-details-count" className="muted">
          {details.length} / {DETAILS_MAX} characters
        </span>
      </TextAreaField>
      <ReplyEmailField
        id="report-email"
        label="Your e-mail address (optional, so we can tell you the outcome)"
        value={email}
        onValue={setEmail}
      />
      <SubmitWithStatus busy={busy} label="Send report" busyLabel="Sending..." message={message} />
    </form>
  );
}
