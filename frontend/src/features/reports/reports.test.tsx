import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, renderAt, stubFetch } from '../../test/render';

const status = {
  reference: 'R-7K3M9Q2X4B',
  receivedAt: '2026-11-06T18:00:00.000Z',
  acknowledgeBy: '2026-11-08T18:00:00.000Z',
  acknowledgedAt: null,
  resolveBy: '2026-11-18T00:00:00.000Z',
  resolvedAt: null,
  outcome: null,
  appealedAt: null,
  appealDecideBy: null,
  appealDecision: null,
  appealBusinessDays: 14,
  canAppeal: false,
};

async function fillReport() {
  fireEvent.change(await screen.findByLabelText('Address of the page or file', {}, { timeout: 3000 }), {
    target: { value: ' /video/clip-one ' },
  });
  fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'no_consent' } });
  fireEvent.change(screen.getByLabelText('Details'), { target: { value: 'It is me.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
}

describe('content report form on /contact', () => {
  it('offers the fixed reasons, including consent and age, and a length-limited details box', async () => {
    stubFetch(() => json([]));
    renderAt('/contact');
    await screen.findByLabelText('Reason', {}, { timeout: 3000 });
    const options = [...screen.getByLabelText<HTMLSelectElement>('Reason').options].map((o) => o.textContent);
    expect(options).toContain('I am depicted and did not consent');
    expect(options).toContain('A person depicted may be under 18');
    expect(options).toContain('Other');
    expect(screen.getByLabelText('Details').getAttribute('maxLength')).toBe('2000');
  });

  it('posts the report and shows the reference with the promised timelines and an appeal link', async () => {
    const fetchMock = stubFetch((url) => (url === '/api/reports' ? json(status, 201) : json([])));
    renderAt('/contact');
    await fillReport();
    expect(await screen.findByTestId('report-reference')).toHaveProperty('textContent', 'R-7K3M9Q2X4B');
    const text = document.querySelector('main')?.textContent ?? '';
    expect(text).toContain('within 48 hours, by 8 November 2026 at 18:00 UTC');
    expect(text).toContain('within seven business days, by 18 November 2026 at 00:00 UTC');
    expect(text).toContain('within 14 business days');
    expect(screen.getByRole('link', { name: 'appeal' }).getAttribute('href')).toBe('/reports/R-7K3M9Q2X4B/appeal');
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/reports');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      content: '/video/clip-one',
      reason: 'no_consent',
      details: 'It is me.',
      email: '',
    });
  });

  it('comes from an item\'s "Report this" with that item filled in; anything but a site item path is ignored', async () => {
    stubFetch(() => json([]));
    const first = renderAt('/contact?item=%2Fvideo%2Fclip-one');
    expect(await screen.findByLabelText<HTMLInputElement>('Address of the page or file', {}, { timeout: 3000 })).toHaveProperty(
      'value',
      '/video/clip-one',
    );
    first.unmount();
    for (const item of ['https%3A%2F%2Felsewhere.example%2Fx', '%2Fvideo%2F', '%2Faccount', 'javascript%3Aalert(1)']) {
      const view = renderAt(`/contact?item=${item}`);
      expect(await screen.findByLabelText<HTMLInputElement>('Address of the page or file', {}, { timeout: 3000 })).toHaveProperty(
        'value',
        '',
      );
      view.unmount();
    }
  });

  it("shows the server's validation message and the rate-limit text", async () => {
    let answer = json({ error: { code: 'bad_request', message: 'content: give a path on this site' } }, 400);
    stubFetch((url) => (url === '/api/reports' ? answer : json([])));
    renderAt('/contact');
    await fillReport();
    expect(await screen.findByText('content: give a path on this site')).toBeTruthy();
    answer = json({ error: { code: 'rate_limited', message: 'too many' } }, 429);
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText(/Too many submissions/)).toBeTruthy();
  });
});

describe('appeal page', () => {
  it('explains that an undecided report cannot be appealed yet', async () => {
    stubFetch((url) => (url === '/api/reports/R-7K3M9Q2X4B' ? json(status) : json([])));
    renderAt('/reports/R-7K3M9Q2X4B/appeal');
    expect(await screen.findByText('You can appeal once the report has been decided.', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send appeal' })).toBeNull();
  });

  it('sends an appeal for a decided report and shows when it will be decided', async () => {
    const decided = { ...status, resolvedAt: '2026-11-10T09:00:00.000Z', outcome: 'no_action', canAppeal: true };
    const fetchMock = stubFetch((url) =>
      url === '/api/reports/R-7K3M9Q2X4B/appeal'
        ? json({ ...decided, canAppeal: false, appealedAt: '2026-11-13T12:00:00.000Z', appealDecideBy: '2026-12-04T00:00:00.000Z' })
        : url === '/api/reports/R-7K3M9Q2X4B'
          ? json(decided)
          : json([]),
    );
    renderAt('/reports/R-7K3M9Q2X4B/appeal');
    expect(await screen.findByText(/No action was taken/, {}, { timeout: 3000 })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Why should the decision change?'), { target: { value: 'The release is forged.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send appeal' }));
    expect(await screen.findByText(/decided by 4 December 2026 at 00:00 UTC/)).toBeTruthy();
    expect(screen.getByText(/Your appeal has been received/)).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([u, init]) => String(u).endsWith('/appeal') && init?.method === 'POST')).toBe(true),
    );
  });

  it('says so when the reference is unknown', async () => {
    stubFetch(() => json({ error: { code: 'not_found', message: 'no report with that reference' } }, 404));
    renderAt('/reports/R-0000000000/appeal');
    expect(await screen.findByText('no report with that reference', {}, { timeout: 3000 })).toBeTruthy();
  });
});
