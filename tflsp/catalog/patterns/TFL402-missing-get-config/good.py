"""get_config() records every constructor argument; from_config() rebuilds the layer argument."""

import os
import tempfile

import numpy as np
from tensorflow import keras


@keras.utils.register_keras_serializable(package="demo")
class Classifier(keras.Model):
    def __init__(self, backbone, num_classes, **kwargs):
        super().__init__(**kwargs)
        self.backbone = backbone
        self.num_classes = num_classes
        self.head = keras.layers.Dense(num_classes)

    def call(self, inputs):
        return self.head(self.backbone(inputs))

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "backbone": keras.layers.serialize(self.backbone),
                "num_classes": self.num_classes,
            }
        )
        return config

    @classmethod
    def from_config(cls, config):
        config["backbone"] = keras.layers.deserialize(config["backbone"])
        return cls(**config)


model = Classifier(keras.layers.Dense(8, activation="relu"), num_classes=3)
x = np.ones((2, 4), "float32")
print("output shape:", tuple(model(x).shape))

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "classifier.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    print("restored output matches:", np.allclose(restored(x), model(x)))
