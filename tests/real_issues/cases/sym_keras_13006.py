# /// case
# source = "https://github.com/keras-team/keras/issues/13006"
# title = "Keras training and validation accuracy always converges to 0.5"
# sampling = "by-symptom: accuracy stuck at 0.5 binary classification keras"
# symptom = "training and validation accuracy stay at 0.5"
# flavour = "tf.keras"
# kind = "flow_from_directory default class_mode='categorical' with a single sigmoid output"
# mistake = "The directory iterators keep the default class_mode='categorical' (one-hot pairs) while the model ends in one sigmoid unit trained with binary_crossentropy."
# runtime = "silent"
# ///
from tensorflow.keras import layers, models
from tensorflow.keras.preprocessing.image import ImageDataGenerator

gen = ImageDataGenerator(rescale=1.0 / 255)
train_it = gen.flow_from_directory("data/train", target_size=(128, 128), batch_size=32)  # <-
val_it = gen.flow_from_directory("data/val", target_size=(128, 128), batch_size=32)  # <-

model = models.Sequential(
    [
        layers.Input((128, 128, 3)),
        layers.Conv2D(16, 3, activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dense(1, activation="sigmoid"),
    ]
)
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
model.fit(train_it, validation_data=val_it, epochs=10)
