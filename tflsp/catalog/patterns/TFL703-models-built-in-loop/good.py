"""Reset Keras's global state before each new model."""

from tensorflow import keras


def build(units):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(units), keras.layers.Dense(1)])


names = []
for units in (8, 16, 32, 64):
    keras.backend.clear_session()
    model = build(units)
    names.append(model.layers[0].name)
print("first layer names:", names)
