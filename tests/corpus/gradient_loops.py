"""Idiomatic custom training code around tf.GradientTape (no diagnostics expected)."""

import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
loss_fn = keras.losses.MeanSquaredError()
history = []


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        prediction = model(x, training=True)
        loss = loss_fn(y, prediction)
        loss += tf.add_n(model.losses) if model.losses else 0.0
    grads = tape.gradient(loss, model.trainable_variables)
    grads, _ = tf.clip_by_global_norm(grads, 1.0)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def eager_step(x, y):
    with tf.GradientTape() as tape:
        prediction = model(x)
        loss = tf.reduce_mean(tf.square(prediction - y))
        history.append(float(loss.numpy()))
    variables = model.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return np.mean(history)


def gan_step(generator, discriminator, g_opt, d_opt, noise, real):
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fake = generator(noise, training=True)
        real_out = discriminator(real, training=True)
        fake_out = discriminator(fake, training=True)
        g_loss = -tf.reduce_mean(fake_out)
        d_loss = tf.reduce_mean(fake_out) - tf.reduce_mean(real_out)
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))


def second_derivative(value):
    x = tf.constant(value)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x**3
        dy_dx = inner.gradient(y, x)
    return outer.gradient(dy_dx, x)


def two_losses(w, x):
    with tf.GradientTape(persistent=True) as tape:
        a = tf.reduce_sum(w * x)
        b = tf.reduce_sum(w * w)
    grad_a = tape.gradient(a, w)
    grad_b = tape.gradient(b, w)
    del tape
    return grad_a, grad_b


def jacobian_of(w, x):
    with tf.GradientTape() as tape:
        y = tf.linalg.matvec(w, x)
    return tape.jacobian(y, w)


class Trainer(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"loss": loss}


def fit_loop(dataset, epochs):
    for _ in range(epochs):
        for x, y in dataset:
            train_step(x, y)
    print("learning rate:", float(optimizer.learning_rate))
