# /// case
# source = "https://github.com/fversaci/WaveTF/issues/3"
# title = "ValueError: Unknown layer: HaarWaveLayer2D"
# sampling = "by-symptom: ValueError: Unknown layer when loading model with custom layer load_model"
# symptom = "ValueError: Unknown layer: HaarWaveLayer2D"
# flavour = "tf.keras"
# kind = "load_model without custom_objects for a custom layer"
# mistake = "A model built with a third-party wavelet layer is saved and then loaded with tf.keras.models.load_model() without passing the library's layer classes."
# runtime = "raises"
# ///
import tensorflow as tf
from wavetf._haar_conv import HaarWaveLayer2D

inp = tf.keras.Input((64, 64, 1))
coeffs = HaarWaveLayer2D()(inp)
out = tf.keras.layers.Dense(2)(tf.keras.layers.Flatten()(coeffs))
model = tf.keras.Model(inp, out)
model.save("wave_model")

restored = tf.keras.models.load_model("wave_model")  # <-
