# /// case
# source = "https://github.com/sql-machine-learning/elasticdl/issues/1144"
# title = "Need to use non-persistent gradient tape"
# sampling = "by-pattern"
# symptom = "none; the thread contrasts persistent and non-persistent tapes"
# flavour = "keras3"
# kind = "persistent GradientTape used for two gradients"
# mistake = "None: the tape is created with persistent=True, so two gradient() calls are allowed, and it is deleted afterwards."
# clean = true
# ///
import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    y = x * x
    z = y * y
dz_dx = t.gradient(z, x)
dy_dx = t.gradient(y, x)
del t
