# /// case
# source = "https://github.com/keras-team/keras/issues/8612"
# title = "can not load_model() or load_from_json() if my model contains my own Layer"
# sampling = "by-symptom: ValueError: Unknown layer when loading model with custom layer load_model"
# symptom = "ValueError: Unknown layer: MyLayer"
# flavour = "tf.keras"
# kind = "load_model without custom_objects for a custom layer"
# mistake = "A custom layer with a constructor argument has no get_config() and is loaded back with load_model() without custom_objects."
# runtime = "raises"
# expected = ["TFL401", "TFL402"]
# ///
from keras import backend as K
from keras.layers import Dense, Layer
from keras.models import Sequential, load_model


class MyLayer(Layer):  # <-
    def __init__(self, output_dim, **kwargs):
        self.output_dim = output_dim
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=(input_shape[1], self.output_dim), initializer="uniform")
        super().build(input_shape)

    def call(self, x):
        return K.dot(x, self.kernel)


model = Sequential()
model.add(Dense(32, input_shape=(784,)))
model.add(MyLayer(100))
model.save("mode_test.h5")
model = load_model("mode_test.h5")  # <-
