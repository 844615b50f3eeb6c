import { randomUUID } from 'node:crypto';

export interface FieldError {
  field: string;
  message: string;
}

/** The provider's error body (reference/ccbill.md §2). */
export function errorBody(url: string, errorCode: number | string, generalMessage: string, errors: FieldError[] = []) {
  return { id: randomUUID(), url, errors, generalMessage, errorCode, timestamp: new Date().toISOString() };
}
