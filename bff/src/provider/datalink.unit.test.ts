import { describe, expect, it } from 'vitest';
import { datalinkResult } from './datalink';

describe('the subscription management answer', () => {
  it('reads the result code from the XML and the CSV forms, and nothing from anything else', () => {
    expect(datalinkResult("<?xml version='1.0' standalone='yes'?>\n<results>1</results>\n")).toBe(1);
    expect(datalinkResult('<results>-3</results>')).toBe(-3);
    expect(datalinkResult('"results"\n"1"\n')).toBe(1);
    expect(datalinkResult('"results"\r\n"-12"')).toBe(-12);
    for (const other of ['', 'OK', '<html>502 Bad Gateway</html>', '"results"\n"yes"', `${'\n'.repeat(5000)}1`])
      expect(datalinkResult(other)).toBeUndefined();
  });
});
