# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/40652"
# title = "Gradient with respect to input returns None using GradientTape()."
# sampling = "by-pattern"
# symptom = "none with the posted solution; the perturbed input is watched"
# flavour = "keras3"
# kind = "gradient with respect to a watched input tensor"
# mistake = "None: the perturbed input r is a tensor, so it is explicitly watched before the forward pass, and the gradient of the divergence with respect to it is defined."
# clean = true
# ///
import keras
import tensorflow as tf

lstm = keras.layers.LSTM(units=128)
head = keras.layers.Dense(units=10)


def adversarial_direction(v, p_logit):
    r = tf.random.uniform(shape=tf.shape(v), minval=0.001, maxval=0.005)
    r = tf.add(v, r)
    with tf.GradientTape() as tape:
        tape.watch(r)
        p_logit_r = head(lstm(r))
        kl = tf.reduce_sum(tf.nn.softmax(p_logit) * (tf.nn.log_softmax(p_logit) - tf.nn.log_softmax(p_logit_r)))
    return tape.gradient(kl, r)


print(adversarial_direction(tf.ones((2, 5, 8)), tf.ones((2, 10))).shape)
