import { render, screen } from '@testing-library/react';
import { create } from 'qrcode';
import { describe, expect, it, vi } from 'vitest';
import { EnrolmentPanel } from './EnrolmentPanel';

const URI = 'otpauth://totp/Media%20Site:mod_q?secret=JBSWY3DPEHPK3PXP&issuer=Media%20Site&algorithm=SHA1&digits=6&period=30';

describe('the TOTP enrolment panel', () => {
  it('shows the secret, the URI and the URI as a QR code of its modules', async () => {
    render(<EnrolmentPanel e={{ name: 'mod_q', secret: 'JBSWY3DPEHPK3PXP', uri: URI }} onDone={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'TOTP secret for mod_q: shown once' })).toBeTruthy();
    expect(screen.getByLabelText(/^Enrolment URI/)).toHaveProperty('value', URI);
    const qr = await screen.findByRole('img', { name: /QR code of mod_q's enrolment URI/ });
    const { modules } = create(URI, { errorCorrectionLevel: 'M' });
    // The matrix with a 4-module quiet zone each side; one square per dark module.
    expect(qr.getAttribute('viewBox')).toBe(`0 0 ${modules.size + 8} ${modules.size + 8}`);
    // Row by row: the square at column x of row y is dark where the matrix is (not its transpose).
    const squares = [...modules.data].flatMap((on, i) =>
      on ? [`M${(i % modules.size) + 4} ${Math.floor(i / modules.size) + 4}h1v1h-1z`] : [],
    );
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(squares.join(''));
  });
});
