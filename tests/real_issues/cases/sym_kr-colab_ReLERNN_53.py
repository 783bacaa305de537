# /// case
# source = "https://github.com/kr-colab/ReLERNN/issues/53"
# title = "The filepath provided must end in `.keras` (Keras model format)"
# sampling = "by-symptom: Invalid filepath extension for saving. Please add either a `.keras` extension"
# symptom = "ValueError: The filepath provided must end in `.keras` (Keras model format). Received: filepath=./example_output/networks/weights.h5"
# flavour = "tf.keras"
# kind = "Keras 3: ModelCheckpoint filepath must end in .keras (.weights.h5 with save_weights_only)"
# mistake = "The training helper checkpoints whole models to a 'weights.h5' path; with TF 2.16+ (Keras 3) ModelCheckpoint needs .keras, or .weights.h5 with save_weights_only=True."
# runtime = "raises"
# note = "Keras 3.0 raised; Keras 3.15 accepts a .h5 path again (legacy HDF5 format), while .hdf5 still raises (checked)."
# ///
import os

from tensorflow.keras.callbacks import EarlyStopping, ModelCheckpoint


def run_models(model, train_gen, val_gen, network_dir):
    weights_path = os.path.join(network_dir, "weights.h5")
    callbacks = [
        EarlyStopping(monitor="val_loss", patience=10),
        ModelCheckpoint(filepath=weights_path, monitor="val_loss", save_best_only=True),  # <-
    ]
    return model.fit(train_gen, validation_data=val_gen, epochs=100, callbacks=callbacks)
