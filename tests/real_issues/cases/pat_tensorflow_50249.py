# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/50249"
# title = "mixed keras import levels lead to untracked variables"
# sampling = "by-pattern"
# symptom = "model1.trainable_variables prints []"
# flavour = "tf.keras"
# kind = "standalone keras and tf.keras objects mixed in one model"
# mistake = "Inputs come from tensorflow.keras while the Dense layer is imported from the standalone keras package, and both are combined into tf.keras Models."
# runtime = "silent"
# note = "A mistake while keras and tf.keras were different packages (TF <= 2.15, or tf_keras with TF_USE_LEGACY_KERAS=1); on TF 2.21 both names are Keras 3."
# ///
from keras.layers import Dense, Input
from tensorflow import keras

input1 = keras.layers.Input(shape=(2, 2))
input2 = Input(shape=(2, 2))
linear_layer = Dense(4)
y = linear_layer(input1)  # <-
model1 = keras.Model(input1, y)  # <-
print(model1.trainable_variables)
