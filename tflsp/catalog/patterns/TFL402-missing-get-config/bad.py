"""A Model subclass that takes a layer in __init__ but has no get_config() cannot be saved."""

import os
import tempfile

import numpy as np
from tensorflow import keras


@keras.utils.register_keras_serializable(package="demo")
class Classifier(keras.Model):  # [TFL402]
    def __init__(self, backbone, num_classes, **kwargs):
        super().__init__(**kwargs)
        self.backbone = backbone
        self.num_classes = num_classes
        self.head = keras.layers.Dense(num_classes)

    def call(self, inputs):
        return self.head(self.backbone(inputs))


model = Classifier(keras.layers.Dense(8, activation="relu"), num_classes=3)
x = np.ones((2, 4), "float32")
print("output shape:", tuple(model(x).shape))

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "classifier.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    print("restored output matches:", np.allclose(restored(x), model(x)))
