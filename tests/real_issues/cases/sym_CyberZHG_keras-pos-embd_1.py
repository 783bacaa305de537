# /// case
# source = "https://github.com/CyberZHG/keras-pos-embd/issues/1"
# title = "ValueError: Unknown layer: TrigPosEmbedding"
# sampling = "by-symptom: ValueError: Unknown layer when loading model with custom layer load_model"
# symptom = "ValueError: Unknown layer: TrigPosEmbedding"
# flavour = "tf.keras"
# kind = "load_model without custom_objects for a custom layer"
# mistake = "Training worked, but loading the saved model fails because the library's TrigPosEmbedding layer is not given to load_model() through custom_objects."
# runtime = "raises"
# ///
import keras
from keras_pos_embd import TrigPosEmbedding

tokens = keras.layers.Input(shape=(None,))
emb = keras.layers.Embedding(1000, 64)(tokens)
pos = TrigPosEmbedding(mode=TrigPosEmbedding.MODE_ADD)(emb)
model = keras.models.Model(tokens, keras.layers.Dense(2)(pos))
model.save("pos_model.h5")

model = keras.models.load_model("pos_model.h5")  # <-
