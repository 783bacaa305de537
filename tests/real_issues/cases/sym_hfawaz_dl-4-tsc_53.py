# /// case
# source = "https://github.com/hfawaz/dl-4-tsc/issues/53"
# title = "keras 3.8.0: ValueError: The filepath provided must end in `.keras` (Keras model format). Received: filepath=....hdf5"
# sampling = "by-symptom: Invalid filepath extension for saving. Please add either a `.keras` extension"
# symptom = "ValueError: The filename must end in `.weights.h5`. Received: filepath=....model_init.hdf5"
# flavour = "keras3"
# kind = "Keras 3: ModelCheckpoint filepath must end in .keras (.weights.h5 with save_weights_only)"
# mistake = "The ResNet classifier saves its initial weights to 'model_init.hdf5' and checkpoints the best model to 'best_model.hdf5'; Keras 3 wants '.weights.h5' and '.keras'."
# runtime = "raises"
# expected = ["TFL405", "TFL407"]
# ///
import keras


class ClassifierResnet:
    def __init__(self, output_directory, input_shape, nb_classes):
        self.output_directory = output_directory
        self.model = self.build_model(input_shape, nb_classes)
        self.model.save_weights(self.output_directory + "model_init.hdf5")  # <-

    def build_model(self, input_shape, nb_classes):
        inp = keras.layers.Input(input_shape)
        x = keras.layers.Conv1D(64, 8, padding="same", activation="relu")(inp)
        x = keras.layers.GlobalAveragePooling1D()(x)
        model = keras.models.Model(inp, keras.layers.Dense(nb_classes, activation="softmax")(x))
        model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
        file_path = self.output_directory + "best_model.hdf5"
        self.callbacks = [keras.callbacks.ModelCheckpoint(filepath=file_path, monitor="loss", save_best_only=True)]  # <-
        return model
