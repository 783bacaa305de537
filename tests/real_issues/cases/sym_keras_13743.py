# /// case
# source = "https://github.com/keras-team/keras/issues/13743"
# title = "TypeError: ('Keyword argument not understood:', 'inputs')"
# sampling = "by-symptom: Only input tensors may be passed as positional arguments keras 3"
# symptom = "TypeError: ('Keyword argument not understood:', 'inputs')"
# flavour = "tf.keras"
# kind = "Keras 1 argument names (Model(input=, output=), nb_epoch, output_dim, init)"
# mistake = "A fine-tuning script builds the model with Model(input=..., output=...), the Keras 1 keyword names; Keras 2 and 3 take inputs= and outputs=."
# runtime = "raises"
# expected = ["TFL608"]
# ///
from tensorflow.keras.applications import VGG16
from tensorflow.keras.layers import Dense, Flatten
from tensorflow.keras.models import Model

model = VGG16(weights="imagenet", include_top=False, input_shape=(224, 224, 3))
x = Flatten()(model.output)
predictions = Dense(2, activation="softmax")(x)
model_final = Model(input=model.input, output=predictions)  # <-
