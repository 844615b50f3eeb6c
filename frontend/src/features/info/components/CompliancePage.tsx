import { RECORDS_EMAIL, SITE_NAME } from '../../../config/site';

export function CompliancePage() {
  return (
    <article className="prose">
      <h1>18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement</h1>
      <p>
        All models, actors, actresses and other persons who appear in any visual depiction on {SITE_NAME} were 18 years of age or older at
        the time the depiction was created.
      </p>
      <p>
        The records required by 18 U.S.C. 2257 and 28 C.F.R. 75 for all materials on this site are kept by the custodian of records, who can
        be reached by e-mail at <a href={`mailto:${RECORDS_EMAIL}`}>{RECORDS_EMAIL}</a>.
      </p>
    </article>
  );
}
