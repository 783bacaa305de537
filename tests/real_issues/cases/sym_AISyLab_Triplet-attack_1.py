# /// case
# source = "https://github.com/AISyLab/Triplet-attack/issues/1"
# title = "keras>=3.0 no longer supported .hdf5 format"
# sampling = "by-symptom: Invalid filepath extension for saving. Please add either a `.keras` extension"
# symptom = "ValueError: The filepath provided must end in `.keras` (Keras model format). Received: filepath=Model/Triplet_model_ASCAD_..._0.hdf5"
# flavour = "keras3"
# kind = "Keras 3: ModelCheckpoint filepath must end in .keras (.weights.h5 with save_weights_only)"
# mistake = "The checkpoint path is built by string formatting with an .hdf5 suffix, which Keras 3's ModelCheckpoint rejects for whole-model saving."
# runtime = "raises"
# expected = ["TFL407"]
# ///
from keras.callbacks import ModelCheckpoint

model_root = "Model/"
test_info = "ASCAD_HW_ep1"
filepath = model_root + "Triplet_model_{}.hdf5".format(test_info)
checkpoint = ModelCheckpoint(  # <-
    filepath=filepath,
    monitor="val_loss",
    mode="min",
    save_best_only=True,
)
