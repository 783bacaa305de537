import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';

import { StatusInputs, statusView, Translate } from '../../src/status';

const t: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => args[Number(i)] ?? '');
const running: StatusInputs = { phase: 'running', trusted: true, verifierEnabled: true, verifier: undefined };

describe('statusView', () => {
  it('says "verifier unknown" until the server reports a state', () => {
    const v = statusView(running, t);
    assert.match(v.text, /verifier unknown/);
    assert.equal(v.level, 'normal');
  });

  it('shows the state the server reported, with its detail in the tooltip', () => {
    const v = statusView({ ...running, verifier: { state: 'Ready', detail: 'TensorFlow 2.21.0, Keras 3' } }, t);
    assert.match(v.text, /verifier ready/);
    assert.match(v.tooltip, /TensorFlow 2\.21\.0/);
    assert.match(statusView({ ...running, verifier: { state: 'busy' } }, t).text, /spin/);
    const crashed = statusView({ ...running, verifier: { state: 'crashed' } }, t);
    assert.equal(crashed.level, 'warning');
    assert.match(crashed.text, /\$\(warning\)/);
  });

  it('shows the verifier off in restricted mode whatever the server says', () => {
    const v = statusView({ ...running, trusted: false, verifier: { state: 'ready' } }, t);
    assert.match(v.text, /verifier off/);
    assert.match(v.tooltip, /Restricted mode/);
  });

  it('shows the verifier off when the user turned it off', () => {
    assert.match(statusView({ ...running, verifierEnabled: false, verifier: { state: 'ready' } }, t).text, /verifier off/);
  });

  it('marks a missing tflsp or a dead server as errors and keeps the note', () => {
    const missing = statusView({ ...running, phase: 'not-installed', note: 'python: /usr/bin/python3' }, t);
    assert.equal(missing.level, 'error');
    assert.match(missing.tooltip, /\/usr\/bin\/python3/);
    assert.equal(statusView({ ...running, phase: 'failed' }, t).level, 'error');
    assert.match(statusView({ ...running, phase: 'starting' }, t).text, /loading~spin/);
    assert.match(statusView({ ...running, phase: 'disabled' }, t).tooltip, /tflsp\.enable/);
  });
});
