# /// case
# source = "http://pullrequest.ru/13403374/prognozirovanie-tolko-odnogo-klassa"
# title = "Predicting only one class (stored Russian copy of a Stack Overflow question)"
# sampling = "by-symptom: keras model always predicts the same class binary classification sigmoid code"
# symptom = "the fine-tuned VGG16 predicts a single class for every image"
# flavour = "tf.keras"
# kind = "softmax on a single-unit output"
# mistake = "The binary head is Dense(1, activation='softmax'), which always outputs 1; the answer replaces it with a sigmoid."
# runtime = "silent"
# expected = ["TFL802"]
# ///
from keras.applications import VGG16
from keras.layers import Dense, GlobalAveragePooling2D
from keras.models import Model

base_model = VGG16(weights="imagenet", include_top=False)
x = GlobalAveragePooling2D()(base_model.output)
x = Dense(1024, activation="relu")(x)
x = Dense(512, activation="relu")(x)
preds = Dense(1, activation="softmax")(x)  # <-
vgg = Model(inputs=base_model.input, outputs=preds)
vgg.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
