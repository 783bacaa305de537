# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/60848"
# title = "tf.data.Dataset.map does not support randomization"
# sampling = "by-pattern"
# symptom = "the value drawn with numpy.random.randint is the same for every element and epoch"
# flavour = "tf.keras"
# kind = "Python/NumPy randomness in traced code (drawn once at trace time)"
# mistake = "The map function draws with np.random.randint, which runs once while the function is traced, so every element gets the same constant."
# runtime = "silent"
# expected = ["TFL105"]
# ///
import numpy as np
import tensorflow as tf

dataset = tf.data.Dataset.from_tensor_slices({"key": np.arange(5), "value": np.random.random(5)})


def test_function(x, f="key", low=0, high=100):
    x[f] = np.random.randint(low, high)  # <-
    return x


for batch in dataset.map(test_function):
    print(batch)
