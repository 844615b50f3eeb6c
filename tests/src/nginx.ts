// One nginx runner for npm start, the tests and the benchmarks: scripts/lib/nginx.ts.
export { renderTemplate, startNginx, type NginxOptions, type RunningNginx } from '../../scripts/lib/nginx';
export { freePort } from '../../scripts/lib/process';
