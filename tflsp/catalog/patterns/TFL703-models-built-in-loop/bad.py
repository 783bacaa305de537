"""A small hyper-parameter search that builds a new model on every iteration."""

from tensorflow import keras


def build(units):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(units), keras.layers.Dense(1)])


names = []
for units in (8, 16, 32, 64):
    model = build(units)  # [TFL703]
    names.append(model.layers[0].name)
print("first layer names:", names)
