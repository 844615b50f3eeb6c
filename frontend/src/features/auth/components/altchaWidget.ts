// The ALTCHA web component, loaded only when a sign-in needs it (never in the first bundle). The
// "external" build with its stylesheet and a worker file of our own origin: the site's CSP allows
// scripts, styles and workers from 'self' only, not the blob: workers and inline styles of the
// default build.
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

// The one algorithm the bff's challenges use (bff/src/security/altcha.ts).
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
