# /// case
# source = "https://github.com/keras-team/keras/issues/20124"
# title = "`ops.stop_gradient` does not work with `KerasTensor`"
# sampling = "by-pattern"
# symptom = "none on Keras 3.15; the thread's error was a Keras bug since fixed"
# flavour = "keras3"
# kind = "keras.ops applied to symbolic tensors in a functional model"
# mistake = "None: keras.ops functions accept KerasTensors while a functional model is built (checked on Keras 3.15)."
# clean = true
# ///
from keras import Input, Model, layers, ops

a = Input(shape=(2,))
b = layers.Dense(4)(a)
c = layers.Dense(4)(b)
d = ops.stop_gradient(b) + c
model = Model(inputs=a, outputs=d)
print(model(ops.convert_to_tensor([[1.0, 2.0]])))
