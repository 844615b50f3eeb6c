import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { TextAreaField } from '../../../components/Field';
import { SubmitWithStatus, useFormSubmit } from '../../../components/FormSubmit';
import { getReport } from '../api/getReport';
import type { ReportStatus } from '../api/request';
import { submitAppeal } from '../api/submitAppeal';
import { DETAILS_MAX, outcomeText } from '../reasons';
import { utcDate } from './dates';
import { messageFor, ReplyEmailField } from './ReportForm';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; report: ReportStatus };

function Status({ report }: { report: ReportStatus }) {
  return (
    <dl className="report-status">
      <dt>Received</dt>
      <dd>{utcDate(report.receivedAt)}</dd>
      <dt>Outcome</dt>
      <dd>
        {report.resolvedAt
          ? `${outcomeText(report.outcome)} (${utcDate(report.resolvedAt)})`
          : `Not decided yet; due by ${utcDate(report.resolveBy)}.`}
      </dd>
      {report.appealedAt && (
        <>
          <dt>Appeal</dt>
          <dd>
            {report.appealDecision
              ? `Decided: the decision was ${report.appealDecision === 'overturned' ? 'overturned' : 'upheld'}.`
              : `Received ${utcDate(report.appealedAt)}; decided by ${utcDate(report.appealDecideBy ?? report.appealedAt)}.`}
          </dd>
        </>
      )}
    </dl>
  );
}

/** /reports/{reference}/appeal: the status of a report and, once it is decided, the appeal form. */
export function AppealPage() {
  const { reference = '' } = useParams();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [text, setText] = useState('');
  const [email, setEmail] = useState('');
  const { busy, message, submit } = useFormSubmit();

  useEffect(() => {
    let live = true;
    getReport(reference).then(
      (report) => live && setLoad({ state: 'ready', report }),
      (err: unknown) => live && setLoad({ state: 'error', message: messageFor(err) }),
    );
    return () => {
      live = false;
    };
  }, [reference]);

  async function send() {
    setLoad({ state: 'ready', report: await submitAppeal(reference, { text: text.trim(), email: email.trim() }) });
  }

  return (
    <section className="prose">
      <h1>Appeal a report decision</h1>
      <p className="muted">Report {reference}</p>
      {load.state === 'loading' && <p>Loading...</p>}
      {load.state === 'error' && <p className="status status-error">{load.message}</p>}
      {load.state === 'ready' && <Status report={load.report} />}
      {load.state === 'ready' && load.report.appealedAt && !load.report.appealDecision && (
        <p role="status">
          Your appeal has been received. A different reviewer decides it within {load.report.appealBusinessDays} business days.
        </p>
      )}
      {load.state === 'ready' && !load.report.resolvedAt && <p>You can appeal once the report has been decided.</p>}
      {load.state === 'ready' && load.report.canAppeal && (
        <form className="form" onSubmit={(event) => void submit(event, send, messageFor)}>
          <TextAreaField
            id="appeal-text"
            label="Why should the decision change?"
            name="text"
            required
            rows={6}
            cols={60}
            maxLength={DETAILS_MAX}
            value={text}
            onValue={setText}
          />
          <ReplyEmailField id="appeal-email" label="Your e-mail address (optional)" value={email} onValue={setEmail} />
          <SubmitWithStatus busy={busy} label="Send appeal" busyLabel="Sending..." message={message} />
        </form>
      )}
    </section>
  );
}
