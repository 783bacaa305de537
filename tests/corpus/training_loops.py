"""Keras 3 training in the styles of the guides: fit, train_step, a tf.function loop."""

import os
import tempfile

import keras
import numpy as np
import tensorflow as tf


def make_data(n=64):
    x = np.random.rand(n, 6).astype("float32")
    y = (x[:, :1] * 2.0 + 1.0).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    return ds.shuffle(n).batch(16).prefetch(tf.data.AUTOTUNE)


def make_model():
    inputs = keras.Input((6,))
    x = keras.layers.Dense(16, activation="relu")(inputs)
    outputs = keras.layers.Dense(1)(x)
    return keras.Model(inputs, outputs)


@keras.saving.register_keras_serializable(package="corpus")
class CustomFit(keras.Model):
    """Overrides train_step, keeps its own loss tracker (the "customizing fit" guide)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.body = keras.layers.Dense(16, activation="relu")
        self.out = keras.layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")

    def call(self, inputs):
        return self.out(self.body(inputs))

    @property
    def metrics(self):
        return [self.loss_tracker]

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}


def custom_loop(ds, epochs=2):
    model = make_model()
    optimizer = keras.optimizers.SGD(learning_rate=0.01)
    loss_fn = keras.losses.MeanSquaredError()
    train_loss = keras.metrics.Mean()

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        return loss

    for epoch in range(epochs):
        train_loss.reset_state()
        for x, y in ds:
            train_loss.update_state(train_step(x, y))
        tf.print("epoch", epoch, "loss", train_loss.result())
    return model


def fit_with_callbacks(ds, directory):
    model = make_model()
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    callbacks = [
        keras.callbacks.ModelCheckpoint(os.path.join(directory, "best.keras"), save_best_only=True, monitor="loss"),
        keras.callbacks.ModelCheckpoint(
            os.path.join(directory, "epoch_{epoch:02d}.weights.h5"), save_weights_only=True
        ),
        keras.callbacks.EarlyStopping(monitor="loss", patience=2),
    ]
    history = model.fit(ds, epochs=2, callbacks=callbacks, verbose=0)
    return model, history


if __name__ == "__main__":
    ds = make_data()
    custom_loop(ds)
    fitted = CustomFit()
    fitted.compile(optimizer="adam", loss="mse")
    print("custom fit:", sorted(fitted.fit(ds, epochs=1, verbose=0).history))
    with tempfile.TemporaryDirectory() as tmp:
        _, history = fit_with_callbacks(ds, tmp)
        print("epochs:", len(history.history["loss"]), "files:", sorted(os.listdir(tmp)))
