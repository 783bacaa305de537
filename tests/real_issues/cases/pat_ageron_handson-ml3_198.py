# /// case
# source = "https://github.com/ageron/handson-ml3/pull/198"
# title = "Fix: Missing .adapt() call in normalization logic in custom fit()"
# sampling = "by-pattern"
# symptom = "the optional normalization step of the tuned model changes nothing: the features reach the model unscaled"
# flavour = "tf.keras"
# kind = "preprocessing layer used without adapt() or its statistics"
# mistake = "A hypermodel's fit() builds a Normalization layer and applies it to the training features without adapting it first, so the 'normalize' hyperparameter has no effect."
# runtime = "silent"
# expected = ["TFL812"]
# ///
import keras_tuner as kt
import tensorflow as tf


class ClassifierHyperModel(kt.HyperModel):
    def build(self, hp):
        model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(hp.Int("units", 16, 128), activation="relu"), tf.keras.layers.Dense(10, activation="softmax")])
        model.compile(loss="sparse_categorical_crossentropy", optimizer="sgd", metrics=["accuracy"])
        return model

    def fit(self, hp, model, X, y, **kwargs):
        if hp.Boolean("normalize"):
            norm_layer = tf.keras.layers.Normalization()  # <-
            X = norm_layer(X)
        return model.fit(X, y, **kwargs)
