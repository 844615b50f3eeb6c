import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PaymentForm } from './components/PaymentForm';
import { PAYMENT_MESSAGES } from './chain';
import type { RunPaymentChain } from './chain';
import { FIELD_NAMES } from './formData';
import type { PaymentFormData } from './formData';
import { validFields } from '../../test/fixtures';

function fill(form: HTMLElement) {
  const values = { ...validFields(), expYear: String(new Date().getFullYear() + 2) };
  for (const name of FIELD_NAMES) {
    const control = form.querySelector(`[name="${name}"]`);
    if (control) fireEvent.change(control, { target: { value: values[name] } });
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('payment form', () => {
  it('has every spec field, hidden defaults and the expiry selects', () => {
    const { container } = render(<PaymentForm runChain={vi.fn()} />);
    for (const name of FIELD_NAMES) expect(container.querySelector(`[name="${name}"]`)).not.toBeNull();
    const hidden = Object.fromEntries(
      [...container.querySelectorAll('input[type="hidden"]')].map((input) => [input.getAttribute('name'), input.getAttribute('value')]),
    );
    expect(hidden).toEqual({ currency: '840', price: '14.99', period: '30', rebills: '99' });
    const months = [...container.querySelectorAll('select[name="expMonth"] option')]
      .map((option) => option.getAttribute('value'))
      .filter(Boolean);
    expect(months).toHaveLength(12);
    const years = [...container.querySelectorAll('select[name="expYear"] option')]
      .map((option) => option.getAttribute('value'))
      .filter(Boolean);
    expect(years[0]).toBe(String(new Date().getFullYear()));
    expect(years).toHaveLength(10);
    expect(container.querySelector('[name="address2"]')?.hasAttribute('required')).toBe(false);
    expect(container.querySelector('[name="username"]')?.hasAttribute('required')).toBe(true);
  });

  it('shows inline messages and does not call the chain when fields are invalid', () => {
    const runChain = vi.fn<RunPaymentChain>();
    const { container } = render(<PaymentForm runChain={runChain} />);
    fireEvent.blur(container.querySelector('[name="cardNumber"]') as Element);
    expect(screen.getByText('This field is required.')).toBeTruthy();
    fireEvent.change(container.querySelector('[name="cardNumber"]') as Element, { target: { value: '4111 1111 1111 1112' } });
    expect(screen.getByText('Card number is not valid.')).toBeTruthy();
    fireEvent.submit(container.querySelector('form') as HTMLFormElement);
    expect(runChain).not.toHaveBeenCalled();
    expect(container.querySelector('[name="username"]')?.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement?.getAttribute('name')).toBe('username');
  });

  it('runs the chain once with the form and defaults, showing its statuses, and cannot double-submit', async () => {
    const gate = deferred<boolean>();
    const runChain = vi.fn<RunPaymentChain>(async (_data, { onStatus }) => {
      onStatus(PAYMENT_MESSAGES.processing);
      const approved = await gate.promise;
      onStatus(approved ? PAYMENT_MESSAGES.success : PAYMENT_MESSAGES.failed);
      return approved;
    });
    const onApproved = vi.fn();
    const { container } = render(<PaymentForm runChain={runChain} onApproved={onApproved} />);
    fill(container);
    const form = container.querySelector('form') as HTMLFormElement;
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(await screen.findByText('Processing...')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Please wait' })).toHaveProperty('disabled', true);
    expect(runChain).toHaveBeenCalledTimes(1);
    const data = runChain.mock.calls[0]?.[0] as PaymentFormData;
    expect(data).toMatchObject({ username: 'new_member1', currency: '840', price: '14.99', period: '30', rebills: '99', address2: '' });

    gate.resolve(true);
    expect(await screen.findByText('Transaction successful!')).toBeTruthy();
    expect(screen.getByText('Approved, welcome to the home page...')).toBeTruthy();
    expect(onApproved).toHaveBeenCalledTimes(1);
    fireEvent.submit(form);
    expect(runChain).toHaveBeenCalledTimes(1);
  });

  it('lets the visitor try again after a failure', async () => {
    const runChain = vi.fn<RunPaymentChain>(async (_data, { onStatus }) => {
      onStatus(PAYMENT_MESSAGES.paymentToken);
      return false;
    });
    const { container } = render(<PaymentForm runChain={runChain} />);
    fill(container);
    fireEvent.submit(container.querySelector('form') as HTMLFormElement);
    expect(await screen.findByText('Failed to create payment token.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay $14.99' })).toHaveProperty('disabled', false));
  });
});
