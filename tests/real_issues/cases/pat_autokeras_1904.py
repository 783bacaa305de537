# /// case
# source = "https://github.com/keras-team/autokeras/issues/1904"
# title = "ModuleNotFoundError: No module named 'tensorflow.keras.layers.experimental'Bug:"
# sampling = "by-pattern"
# symptom = "ModuleNotFoundError: No module named 'tensorflow.keras.layers.experimental'"
# flavour = "keras3"
# kind = "keras.layers.experimental.preprocessing (removed in Keras 3)"
# mistake = "The library imports preprocessing layers from tensorflow.keras.layers.experimental, which Keras 3 removed; the layers live in keras.layers."
# runtime = "raises"
# expected = ["TFL609"]
# ///
from tensorflow import nest
from tensorflow.keras import layers
from tensorflow.keras.layers.experimental import preprocessing  # <-


class MultiCategoryEncoding(layers.Layer):
    def __init__(self, encoding, **kwargs):
        super().__init__(**kwargs)
        self.encoding = encoding
        self.lookups = [preprocessing.StringLookup() for _ in nest.flatten(encoding)]  # <-
