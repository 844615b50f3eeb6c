import type { FieldName } from '../formData';

export interface FieldSpec {
  name: FieldName;
  label: string;
  /** `select-country`: the country picker; `region`: a state or province picker for the US and Canada, typed elsewhere. */
  type?: 'text' | 'password' | 'email' | 'tel' | 'select-month' | 'select-year' | 'select-country' | 'region';
  autoComplete: string;
  inputMode?: 'numeric' | 'email' | 'tel';
  maxLength?: number;
}

export const FIELD_GROUPS: { legend: string; fields: FieldSpec[] }[] = [
  {
    legend: 'Your membership',
    fields: [
      { name: 'username', label: 'Username', autoComplete: 'username', maxLength: 15 },
      { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', maxLength: 64 },
      { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email', inputMode: 'email', maxLength: 254 },
    ],
  },
  {
    legend: 'Card',
    fields: [
      { name: 'nameOnCard', label: 'Name on card', autoComplete: 'cc-name', maxLength: 64 },
      { name: 'cardNumber', label: 'Card number', autoComplete: 'cc-number', inputMode: 'numeric', maxLength: 23 },
      { name: 'expMonth', label: 'Expiration month', type: 'select-month', autoComplete: 'cc-exp-month' },
      { name: 'expYear', label: 'Expiration year', type: 'select-year', autoComplete: 'cc-exp-year' },
      { name: 'cvv2', label: 'CVV2', autoComplete: 'cc-csc', inputMode: 'numeric', maxLength: 4 },
    ],
  },
  {
    legend: 'Billing address',
    fields: [
      { name: 'firstName', label: 'First name', autoComplete: 'given-name', maxLength: 50 },
      { name: 'lastName', label: 'Last name', autoComplete: 'family-name', maxLength: 50 },
      { name: 'address1', label: 'Address', autoComplete: 'address-line1', maxLength: 100 },
      { name: 'address2', label: 'Address line 2 (optional)', autoComplete: 'address-line2', maxLength: 100 },
      { name: 'city', label: 'City', autoComplete: 'address-level2', maxLength: 50 },
      { name: 'country', label: 'Country', type: 'select-country', autoComplete: 'country' },
      { name: 'state', label: 'State or region', type: 'region', autoComplete: 'address-level1', maxLength: 50 },
      { name: 'postalCode', label: 'Postal code', autoComplete: 'postal-code', maxLength: 10 },
      { name: 'phoneNumber', label: 'Phone number', type: 'tel', autoComplete: 'tel', inputMode: 'tel', maxLength: 20 },
    ],
  },
];
