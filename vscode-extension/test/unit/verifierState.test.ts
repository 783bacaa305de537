import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';

import { parseVerifierState } from '../../src/verifierState';

describe('parseVerifierState', () => {
  it('reads the state and an optional detail', () => {
    assert.deepEqual(parseVerifierState({ state: 'ready' }), { state: 'ready' });
    assert.deepEqual(parseVerifierState({ state: 'failed', detail: 'TensorFlow is not installed' }), {
      state: 'failed',
      detail: 'TensorFlow is not installed',
    });
    assert.deepEqual(parseVerifierState({ state: 'busy', message: 'running TFL301' }), { state: 'busy', detail: 'running TFL301' });
  });

  it('ignores payloads without a usable state', () => {
    for (const params of [null, undefined, 'ready', 3, {}, { state: '' }, { state: 1 }, []]) {
      assert.equal(parseVerifierState(params), undefined, JSON.stringify(params));
    }
  });
});
