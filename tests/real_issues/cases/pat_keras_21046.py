# /// case
# source = "https://github.com/keras-team/keras/issues/21046"
# title = "TypeError: Could not locate class 'keras.Model'. Make sure custom classes are decorated with `@keras.saving.register_keras_serializable()`"
# sampling = "by-pattern"
# symptom = "TypeError: Could not locate class 'DummyModel'. Make sure custom classes are decorated with `@keras.saving.register_keras_serializable()`"
# flavour = "keras3"
# kind = "load_model without custom_objects for a custom layer"
# mistake = "A subclassed model with get_config() saves to .keras but is not registered, so keras.saving.load_model() in a later session cannot find the class."
# runtime = "raises"
# expected = ["TFL401"]
# ///
import keras


class DummyModel(keras.Model):  # <-
    def __init__(self, filters=8, activation="relu", **kwargs):
        super().__init__(**kwargs)
        self.filters = filters
        self.activation = activation
        self.conv = keras.layers.Conv2D(filters, 3, activation=activation)
        self.pool = keras.layers.GlobalAveragePooling2D()

    def call(self, x):
        return self.pool(self.conv(x))

    def get_config(self):
        return {"name": self.name, "filters": self.filters, "activation": self.activation}


model = DummyModel()
model(keras.ops.ones((1, 32, 32, 3)))
model.save("new.keras")
loaded_model = keras.saving.load_model("new.keras")  # <-
