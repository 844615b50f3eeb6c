import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
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

/** The content-report form on /contact (docs/compliance.md). */
export function ReportForm() {
  const [content, setContent] = useState('');
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [receipt, setReceipt] = useState<ReportStatus | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reason === '') return;
    setBusy(true);
    setError('');
    try {
      setReceipt(await submitReport({ content: content.trim(), reason, details: details.trim(), email: email.trim() }));
    } catch (err) {
      setError(messageFor(err));
    } finally {
      setBusy(false);
    }
  }

  if (receipt) return <Receipt report={receipt} />;
  return (
    <form className="form" aria-labelledby="report-form-title" onSubmit={(event) => void submit(event)}>
      <h3 id="report-form-title">Report content</h3>
      <div className="field">
        <label htmlFor="report-content">Address of the page or file</label>
        <input
          id="report-content"
          name="content"
          required
          maxLength={CONTENT_MAX}
          placeholder="/video/... or https://..."
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="report-reason">Reason</label>
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
      </div>
      <div className="field">
        <label htmlFor="report-details">Details</label>
        <textarea
          id="report-details"
          name="details"
          required
          rows={6}
          cols={60}
          maxLength={DETAILS_MAX}
          aria-describedby="report-details-count"
          value={details}
          onChange={(e) => setDetails(e.target.value)}
        />
        <span id="report-details-count" className="muted">
          {details.length} / {DETAILS_MAX} characters
        </span>
      </div>
      <div className="field">
        <label htmlFor="report-email">Your e-mail address (optional, so we can tell you the outcome)</label>
        <input
          id="report-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={EMAIL_MAX}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Sending...' : 'Send report'}
      </button>
      <div role="status" aria-live="polite">
        {error && <p className="status status-error">{error}</p>}
      </div>
    </form>
  );
}
