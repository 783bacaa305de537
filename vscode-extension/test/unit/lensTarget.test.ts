import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';

import { blockEnd, lensArgumentsAt, LensInfo } from '../../src/lensTarget';

const source = [
  'import tensorflow as tf', //            0
  '', //                                   1
  'class Dense2(tf.keras.layers.Layer):', // 2
  '    def build(self, shape):', //        3
  '        self.w = self.add_weight(', //  4
  '            shape=(2,),', //            5
  '        )', //                          6
  '', //                                   7
  '    # a comment at the class level', // 8
  '    def call(self, x):', //             9
  '        return x', //                   10
  '', //                                   11
  '@tf.function', //                       12
  'def step(', //                          13
  '    x,', //                             14
  '):', //                                 15
  '    print(x)', //                       16
  '', //                                   17
  'def helper():', //                      18
  '    return 1', //                       19
];

const lenses: LensInfo[] = [
  { line: 2, command: 'tflsp.verifyClass', args: ['file:///m.py', 'Dense2', 2] },
  { line: 13, command: 'tflsp.verifyFunction', args: ['file:///m.py', 'step', 13] },
];

describe('lensArgumentsAt', () => {
  it('finds the class whose body holds the cursor, methods included', () => {
    for (const line of [2, 4, 8, 10]) {
      assert.deepEqual(lensArgumentsAt(lenses, 'tflsp.verifyClass', line, source), ['file:///m.py', 'Dense2', 2], `line ${line}`);
    }
  });

  it('finds a tf.function with a multi-line signature', () => {
    assert.deepEqual(lensArgumentsAt(lenses, 'tflsp.verifyFunction', 16, source), ['file:///m.py', 'step', 13]);
  });

  it('finds nothing outside the blocks or for the other command', () => {
    assert.equal(lensArgumentsAt(lenses, 'tflsp.verifyClass', 19, source), undefined);
    assert.equal(lensArgumentsAt(lenses, 'tflsp.verifyFunction', 19, source), undefined);
    assert.equal(lensArgumentsAt(lenses, 'tflsp.verifyClass', 0, source), undefined);
    assert.equal(lensArgumentsAt(lenses, 'tflsp.verifyFunction', 4, source), undefined);
  });

  it('prefers the innermost lens', () => {
    const nested: LensInfo[] = [
      { line: 2, command: 'tflsp.verifyFunction', args: ['outer'] },
      { line: 9, command: 'tflsp.verifyFunction', args: ['inner'] },
    ];
    assert.deepEqual(lensArgumentsAt(nested, 'tflsp.verifyFunction', 10, source), ['inner']);
    assert.deepEqual(lensArgumentsAt(nested, 'tflsp.verifyFunction', 5, source), ['outer']);
  });
});

describe('blockEnd', () => {
  it('skips decorators and stops at the first line back at the header indentation', () => {
    assert.equal(blockEnd(source, 2), 10);
    assert.equal(blockEnd(source, 12), 16);
    assert.equal(blockEnd(source, 18), 19);
  });
});
