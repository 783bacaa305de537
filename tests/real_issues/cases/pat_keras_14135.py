# /// case
# source = "https://github.com/keras-team/keras/issues/14135"
# title = "TypeError: fit() got an unexpected keyword argument 'nb_epoch'"
# sampling = "by-pattern"
# symptom = "TypeError: fit() got an unexpected keyword argument 'nb_epoch'"
# flavour = "tf.keras"
# kind = "Keras 1 argument names (Model(input=, output=), nb_epoch, output_dim, init)"
# mistake = "Training code from a Keras 1 tutorial sets the number of epochs with nb_epoch=, a name tf.keras never accepted; the argument is epochs=."
# runtime = "raises"
# expected = ["TFL608"]
# ///
def fit_model(model, X_train, Y_train):
    model.fit(X_train, Y_train, batch_size=32, nb_epoch=10, verbose=1)  # <-
    return model
