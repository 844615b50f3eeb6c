import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINTENANCE_TEXT } from '@media-site/contracts/site-status';
import { HttpError } from '../features/api/fetchJson';
import { pausedForMaintenance } from '../features/api/maintenance';
import { renderAt, siteStatus, stubFetchRoutes } from '../test/render';

describe('maintenance mode', () => {
  afterEach(() => {
    siteStatus.maintenance = null;
  });

  it("every page shows the banner with the operator's words while the site is in maintenance", async () => {
    siteStatus.maintenance = { since: 1, message: 'Back by 14:00 UTC.' };
    stubFetchRoutes({});
    renderAt('/videos');
    const banner = await screen.findByText(`${MAINTENANCE_TEXT} Back by 14:00 UTC.`);
    expect(banner.closest('[role="status"]')).not.toBeNull();
  });

  it('no banner otherwise', async () => {
    const fetchMock = stubFetchRoutes({});
    renderAt('/videos');
    await expect.poll(() => fetchMock.mock.calls.length).toBeGreaterThan(0);
    expect(screen.queryByText(MAINTENANCE_TEXT, { exact: false })).toBeNull();
  });

  it("a refused change shows the server's maintenance sentence; other 503s are not taken for it", () => {
    const sentence = `${MAINTENANCE_TEXT} Back soon.`;
    expect(pausedForMaintenance(new HttpError(503, { code: 'unavailable', message: sentence }))).toBe(sentence);
    expect(pausedForMaintenance(new HttpError(503, { code: 'busy', message: 'busy' }))).toBeUndefined();
    expect(pausedForMaintenance(new HttpError(400, { code: 'bad_request', message: sentence }))).toBeUndefined();
    expect(pausedForMaintenance(new Error(sentence))).toBeUndefined();
  });
});
