# /// case
# source = "https://github.com/tensorflow/models/issues/8395"
# title = "Error: logits and labels must be broadcastable"
# sampling = "by-symptom: logits and labels must be broadcastable: logits_size labels_size keras fit"
# symptom = "InvalidArgumentError: logits and labels must be broadcastable: logits_size=[64,5] labels_size=[64,85]"
# flavour = "tf.keras"
# kind = "number of output units derived from something other than the label set"
# mistake = "The data directory is computed one level too high (the parent of 'Fruit'), so flow_from_directory finds 85 folders as classes while the head has 5 outputs."
# runtime = "raises"
# ///
import os

import tensorflow as tf

zip_file = r"C:\Users\me\Desktop\FYP\Fruit"
base_dir = os.path.join(os.path.dirname(zip_file), "Fruit")
datagen = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1.0 / 255, validation_split=0.2)
train_generator = datagen.flow_from_directory(os.path.dirname(base_dir), target_size=(224, 224), batch_size=64, subset="training")  # <-

base_model = tf.keras.applications.MobileNetV2(input_shape=(224, 224, 3), include_top=False, weights="imagenet")
model = tf.keras.Sequential([base_model, tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(5, activation="softmax")])  # <-
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
model.fit(train_generator, epochs=10)
