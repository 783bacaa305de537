# /// case
# source = "https://github.com/satkr7/Face-recognition-and-identification/issues/1"
# title = "Layer sequential expects 1 inputs, but it received 2 input tensors"
# sampling = "by-symptom: Layer sequential expects 1 input(s), but it received 2 input tensors"
# symptom = "Layer sequential expects 1 inputs, but it received 2 input tensors. Inputs received: [<tf.Tensor 'IteratorGetNext:0' shape=(8, 128) dtype=float32>, <tf.Tensor 'IteratorGetNext:1' shape=(8, 5) dtype=int32>]"
# flavour = "tf.keras"
# kind = "validation_data given as a list instead of a tuple"
# mistake = "validation_data=[X_val, y_val] is a list, which TF 2.2-2.15 Keras reads as inputs only; it must be the tuple (X_val, y_val)."
# runtime = "raises"
# note = "Keras 3.15 accepts the list again (checked)."
# ///
def train(model_relu, X_train, y_train, X_val, y_val, batch_size=8, nb_epoch=50):
    return model_relu.fit(X_train, y_train, batch_size=batch_size, epochs=nb_epoch, validation_data=[X_val, y_val])  # <-
