"""Python side effects inside a tf.function happen once, while it is traced."""

import tensorflow as tf

collected = []
calls = 0


@tf.function
def scale(x):
    global calls
    calls += 1  # [TFL103]
    collected.append(x)  # [TFL103]
    return x * 2


for value in [1.0, 2.0, 3.0]:
    scale(tf.constant(value))

print("calls counted in Python:", calls)
print("values collected:", len(collected))
print("first collected value:", collected[0])
