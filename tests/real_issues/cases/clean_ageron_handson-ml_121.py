# /// case
# source = "https://github.com/ageron/handson-ml/issues/121"
# title = "Question in tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits)"
# sampling = "by-symptom: received from_logits=True but the output argument was produced by a sigmoid or softmax activation and thus does not represent logits"
# symptom = "none; the reader asks why the loss gets the logits instead of the sigmoid output"
# flavour = "keras3"
# kind = "logits to the loss, probabilities only for sampling"
# mistake = "None: the probabilities are used for sampling actions and the raw logits go to the *_with_logits loss, which is the intended split."
# clean = true
# ///
import keras
import tensorflow as tf

policy = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="elu"), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(0.01)


def play_step(observation):
    with tf.GradientTape() as tape:
        logits = policy(observation[None, :])
        p_left = tf.nn.sigmoid(logits)
        action = tf.random.uniform([1, 1]) > p_left
        target = 1.0 - tf.cast(action, tf.float32)
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=logits))
    grads = tape.gradient(loss, policy.trainable_variables)
    return action, grads


play_step(tf.ones(4))
