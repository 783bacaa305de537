# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/47139"
# title = "InaccessibleTensorError for tensor defined in same scope"
# sampling = "by-pattern"
# symptom = "InaccessibleTensorError: The tensor 'Tensor(\"while/while/Neg:0\", shape=(), dtype=float32)' cannot be accessed here: it is defined in another function or code block."
# flavour = "tf.keras"
# kind = "Python list appended inside a loop over a tensor in tf.function (use TensorArray)"
# mistake = "Inside a tf.function, loops over tensors become graph while-loops, and appending their results to a Python list leaks tensors out of the loop body."
# runtime = "raises"
# ///
import tensorflow as tf

cosine_loss = tf.keras.losses.CosineSimilarity(axis=0, reduction="none")


@tf.function
def func():
    A = tf.convert_to_tensor([[1, 1.0, 1], [1, 3, 1]])
    B = tf.convert_to_tensor([[1, 1.0, 1]])
    S = []
    for b in B:
        for a in A:
            S.append(-cosine_loss(a, b))  # <-
    return S
