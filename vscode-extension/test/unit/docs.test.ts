import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';

import { DiagnosticInfo, docsChoices } from '../../src/docs';

const BASE = 'https://tflsp.readthedocs.io/en/latest/';
const diag = (code: string, line: number, extra: Partial<DiagnosticInfo> = {}): DiagnosticInfo => ({
  source: 'tflsp',
  code,
  href: `${BASE}patterns/${code}-x.html`,
  message: `${code} message`,
  startLine: line,
  endLine: line,
  ...extra,
});

describe('docsChoices', () => {
  it('offers the tflsp diagnostics on the cursor line, once per code', () => {
    const got = docsChoices([diag('TFL101', 3), diag('TFL101', 3), diag('TFL301', 3), diag('TFL102', 9)], 3);
    assert.deepEqual(got.map((c) => c.label), ['TFL101', 'TFL301']);
    assert.equal(got[0]?.target, `${BASE}patterns/TFL101-x.html`);
    assert.equal(got[0]?.detail, 'TFL101 message');
  });

  it('offers every tflsp diagnostic of the file when none is on the cursor line', () => {
    const got = docsChoices([diag('TFL101', 3), diag('TFL102', 9, { startLine: 7 })], 5);
    assert.deepEqual(got.map((c) => c.label), ['TFL101', 'TFL102']);
    assert.deepEqual(docsChoices([diag('TFL102', 9, { startLine: 7 })], 8).map((c) => c.label), ['TFL102']);
  });

  it('ignores other linters, syntax errors and diagnostics without a pattern code', () => {
    const other = diag('E501', 3, { source: 'ruff' });
    const noCode = diag('TFL101', 3, { code: undefined });
    const malformed = diag('TFL0001', 3);
    const syntaxError = diag('TFL000', 3, { href: undefined });
    assert.deepEqual(docsChoices([other, noCode, malformed, syntaxError], 3), []);
  });

  it('hands the bare code to the server when a diagnostic has no link', () => {
    assert.equal(docsChoices([diag('TFL205', 1, { href: undefined })], 1)[0]?.target, 'TFL205');
  });
});
