# /// case
# source = "https://github.com/suraj-deshmukh/Keras-Multi-Label-Image-Classification/issues/1"
# title = "You should use binary_accuracy instead of accuracy"
# sampling = "by-symptom: accuracy stuck at 0.5 binary classification keras"
# symptom = "the reported accuracy does not measure the multi-label predictions"
# flavour = "keras3"
# kind = "metrics=['accuracy'] on a multi-label sigmoid output"
# mistake = "A multi-label model (several sigmoid units, binary_crossentropy) asks for 'accuracy', which Keras 3 resolves to categorical accuracy from the output shape instead of per-label binary accuracy."
# runtime = "silent"
# expected = ["TFL809"]
# ///
import keras

tagger = keras.Sequential(
    [
        keras.Input((224, 224, 3)),
        keras.layers.Conv2D(32, 3, activation="relu"),
        keras.layers.GlobalMaxPooling2D(),
        keras.layers.Dense(5, activation="sigmoid"),
    ]
)
tagger.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])  # <-
