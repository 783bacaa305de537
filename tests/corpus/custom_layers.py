"""Custom layers and models the way the Keras guides write them (no diagnostics expected)."""

import os
import tempfile

import keras
import numpy as np
from keras import layers, ops


@keras.saving.register_keras_serializable(package="corpus")
class Linear(layers.Layer):
    """A dense layer built lazily from the input shape."""

    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True
        )
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


@keras.saving.register_keras_serializable(package="corpus")
class RunningMean(layers.Layer):
    """Keeps a non-trainable running mean, updated with assign()."""

    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, input_shape):
        self.mean = self.add_weight(
            shape=(input_shape[-1],), initializer="zeros", trainable=False, name="mean"
        )

    def call(self, inputs, training=False):
        if training:
            batch_mean = ops.mean(inputs, axis=0)
            self.mean.assign(self.momentum * self.mean + (1 - self.momentum) * batch_mean)
        return inputs - self.mean

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum}


@keras.saving.register_keras_serializable(package="corpus")
class ResidualBlock(layers.Layer):
    """Sublayers created in __init__ are tracked; the block takes only plain arguments."""

    def __init__(self, units, dropout=0.1, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dropout = dropout
        self.dense = layers.Dense(units, activation="relu")
        self.drop = layers.Dropout(dropout)
        self.norm = layers.LayerNormalization()

    def call(self, inputs, training=False):
        x = self.drop(self.dense(inputs), training=training)
        return self.norm(inputs + x)

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units, "dropout": self.dropout})
        return config


@keras.saving.register_keras_serializable(package="corpus")
class MLP(keras.Model):
    """A subclassed model with constructor arguments and a complete get_config()."""

    def __init__(self, hidden=16, num_classes=3, **kwargs):
        super().__init__(**kwargs)
        self.hidden = hidden
        self.num_classes = num_classes
        self.block = ResidualBlock(hidden)
        self.project = layers.Dense(hidden)
        self.head = layers.Dense(num_classes)

    def call(self, inputs, training=False):
        x = self.project(inputs)
        return self.head(self.block(x, training=training))

    def get_config(self):
        config = super().get_config()
        config.update({"hidden": self.hidden, "num_classes": self.num_classes})
        return config


@keras.saving.register_keras_serializable(package="corpus")
class Classifier(keras.Model):
    """Takes a layer as an argument: get_config() serializes it, from_config() rebuilds it."""

    def __init__(self, encoder, num_classes, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.num_classes = num_classes
        self.head = layers.Dense(num_classes)

    def call(self, inputs):
        return self.head(self.encoder(inputs))

    def get_config(self):
        base_config = super().get_config()
        config = {
            "encoder": keras.saving.serialize_keras_object(self.encoder),
            "num_classes": self.num_classes,
        }
        return {**base_config, **config}

    @classmethod
    def from_config(cls, config):
        config["encoder"] = keras.saving.deserialize_keras_object(config["encoder"])
        return cls(**config)


def functional_model():
    inputs = keras.Input(shape=(8,), name="features")
    x = Linear(16)(inputs)
    x = RunningMean()(x)
    x = ResidualBlock(16)(x)
    outputs = layers.Dense(1, name="score")(x)
    return keras.Model(inputs, outputs, name="scorer")


def round_trip(model, x, directory):
    path = os.path.join(directory, f"{model.name}.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    return np.allclose(model.predict(x, verbose=0), restored.predict(x, verbose=0), atol=1e-5)


if __name__ == "__main__":
    x = np.random.rand(4, 8).astype("float32")
    with tempfile.TemporaryDirectory() as tmp:
        print("functional:", round_trip(functional_model(), x, tmp))
        mlp = MLP(hidden=8)
        mlp(x)
        print("subclassed:", round_trip(mlp, x, tmp))
        classifier = Classifier(layers.Dense(4, activation="relu"), num_classes=2)
        classifier(x)
        print("with a layer argument:", round_trip(classifier, x, tmp))
