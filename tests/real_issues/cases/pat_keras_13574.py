# /// case
# source = "https://github.com/keras-team/keras/issues/13574"
# title = "Loaded Keras Model is different from saved Model when using Lambda layers"
# sampling = "by-pattern"
# symptom = "the reloaded model silently gives different predictions"
# flavour = "tf.keras"
# kind = "Python lambda in a loop captures the loop variable late"
# mistake = "Lambda(lambda x: x[:, i]) is created inside a loop; the lambda reads i when it runs, so after saving and reloading every slice layer uses the last value of i."
# runtime = "silent"
# ///
import keras.backend as kb
import keras.layers as kl
import keras.models as km


def make_bad_model(vec_dim):
    inputs = kl.Input(shape=(vec_dim,))
    out_array = []
    for i in range(vec_dim):
        vec_slice = kl.Lambda(lambda x: x[:, i])(inputs)  # <-
        out_array.append(vec_slice)
    outputs = kl.Lambda(lambda x: kb.stack(x, axis=1))(out_array)
    model = km.Model(inputs=[inputs], outputs=[outputs])
    model.compile(optimizer="adam", loss="mse")
    return model
