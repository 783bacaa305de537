# /// case
# source = "https://github.com/googlecolab/colabtools/issues/4753"
# title = "Cannot save and load custom model after updating to keras 3"
# sampling = "by-pattern"
# symptom = "TypeError: Could not locate class 'CustomLayer'. Make sure custom classes are decorated with `@keras.saving.register_keras_serializable()`."
# flavour = "keras3"
# kind = "load in a new process without importing the module that registers the custom classes"
# mistake = "After restarting the session only the load cell is run; the registered classes and function are never defined in the new process, so registration never happened."
# runtime = "raises"
# ///
import keras

reconstructed_model = keras.models.load_model("custom_model.keras")  # <-
reconstructed_model.summary()
