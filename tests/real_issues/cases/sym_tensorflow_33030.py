# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/33030"
# title = "Memory leak on TF 2.0 with model.predict or/and model.fit with keras"
# sampling = "by-symptom: memory leak OOM calling model.predict in a loop keras"
# symptom = "memory grows on every model.predict() call until the process is killed"
# flavour = "tf.keras"
# kind = "model.predict() called on single samples inside a loop"
# mistake = "A service calls model.predict() many times per second on one small input; predict() builds a data pipeline per call and is not meant for loops, model(x, training=False) is."
# runtime = "silent"
# ///
import numpy as np
import tensorflow as tf

model = tf.keras.models.load_model("policy.h5")


def serve(frames):
    actions = []
    for frame in frames:
        q = model.predict(np.expand_dims(frame, 0))  # <-
        actions.append(int(np.argmax(q)))
    return actions
