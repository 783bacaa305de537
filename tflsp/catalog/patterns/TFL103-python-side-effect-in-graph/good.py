"""Count with a tf.Variable and collect what the function returns."""

import tensorflow as tf

calls = tf.Variable(0)


@tf.function
def scale(x):
    calls.assign_add(1)
    return x * 2


collected = []
for value in [1.0, 2.0, 3.0]:
    collected.append(scale(tf.constant(value)))

print("calls counted in TensorFlow:", int(calls.numpy()))
print("values collected:", len(collected))
print("first collected value:", float(collected[0]))
