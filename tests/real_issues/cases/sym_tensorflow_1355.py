# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/1355"
# title = "Resource exhausted"
# sampling = "by-symptom: ResourceExhaustedError OOM when allocating tensor with shape keras training"
# symptom = "Resource exhausted: OOM when allocating tensor with shape ... (after several models in a loop)"
# flavour = "tf.keras"
# kind = "many models built in a loop without clearing the Keras session"
# mistake = "127 binary models are built and fitted one after another in a for loop without keras.backend.clear_session(), so the graph and GPU memory keep growing."
# runtime = "raises"
# expected = ["TFL703"]
# ///
from keras.layers import Dense
from keras.models import Sequential


def train_all(datasets, n_epochs=50, batch_size=64):
    fitted = []
    for Xtrain, ytrain in datasets:
        model = Sequential([Dense(64, activation="relu", input_dim=Xtrain.shape[1]), Dense(1, activation="sigmoid")])  # <-
        model.compile(loss="binary_crossentropy", optimizer="adam")
        fitted.append(model.fit(Xtrain, ytrain, epochs=n_epochs, batch_size=batch_size, validation_split=0.35))
    return fitted
