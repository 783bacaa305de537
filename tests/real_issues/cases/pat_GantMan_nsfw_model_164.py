# /// case
# source = "https://github.com/GantMan/nsfw_model/issues/164"
# title = "ValueError: Argument(s) not recognized: {'lr': 8.999999749903509e-07}"
# sampling = "by-pattern"
# symptom = "ValueError: Argument(s) not recognized: {'lr': 8.999999749903509e-07}"
# flavour = "keras3"
# kind = "Keras 2 .h5 model with optimizer state loaded on Keras 3 without compile=False"
# mistake = "The predictor loads a Keras 2 .h5 file with its compile settings; rebuilding the saved optimizer (which used lr) fails on Keras 3, and inference does not need it (compile=False)."
# runtime = "raises"
# ///
import argparse

from tensorflow import keras


def load_model(model_path):
    return keras.models.load_model(model_path)  # <-


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--saved_model_path")
    args = parser.parse_args()
    model = load_model(args.saved_model_path)
