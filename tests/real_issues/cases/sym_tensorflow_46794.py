# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/46794"
# title = "ValueError: Input 0 of layer encoder1_ is incompatible with the layer: expected ndim=3, found ndim=4. Full shape received: (None, 64, 4, 850)"
# sampling = "by-symptom: Input 0 of layer lstm is incompatible with the layer: expected ndim=3, found ndim=2"
# symptom = "ValueError: Input 0 of layer encoder1_ is incompatible with the layer: expected ndim=3, found ndim=4. Full shape received: (None, 64, 4, 850)"
# flavour = "tf.keras"
# kind = "recurrent layer fed data of the wrong rank"
# mistake = "A convolution-over-time block returns a 4-D tensor (batch, 64, 4, 850) and it goes straight into an LSTM, which needs (batch, time, features); a Reshape is missing."
# runtime = "raises"
# expected = ["TFL818"]
# ///
from tensorflow.keras.layers import LSTM, Conv2D, Input

inputs_p = Input(shape=(5, 4, 850))
encoder_inputs = Conv2D(64, (5, 1), padding="same")(inputs_p)
enc = LSTM(128, activation="tanh", return_state=True, return_sequences=True, name="encoder1_")
decoder_outputs, state_h, state_c = enc(encoder_inputs)  # <-
