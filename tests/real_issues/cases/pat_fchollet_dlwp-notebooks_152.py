# /// case
# source = "https://github.com/fchollet/deep-learning-with-python-notebooks/issues/152"
# title = "5.14 Training Convnet with data-augmentation generators"
# sampling = "by-pattern"
# symptom = "WARNING:tensorflow:Your input ran out of data; interrupting training. Make sure that your dataset or generator can generate at least `steps_per_epoch * epochs` batches (in this case, 10000 batches)."
# flavour = "tf.keras"
# kind = "steps_per_epoch larger than the data provides"
# mistake = "With 2000 training images, batch_size=32 and steps_per_epoch=100 ask for 3200 images per epoch, so the iterator runs out and training stops."
# runtime = "warns"
# expected = ["TFL815"]
# ///
from tensorflow.keras.preprocessing.image import ImageDataGenerator


def train(model, train_dir, validation_dir):
    train_datagen = ImageDataGenerator(rescale=1.0 / 255, rotation_range=40, horizontal_flip=True)
    test_datagen = ImageDataGenerator(rescale=1.0 / 255)
    train_generator = train_datagen.flow_from_directory(train_dir, target_size=(150, 150), batch_size=32, class_mode="binary")  # <-
    validation_generator = test_datagen.flow_from_directory(validation_dir, target_size=(150, 150), batch_size=32, class_mode="binary")
    return model.fit(train_generator, steps_per_epoch=100, epochs=100, validation_data=validation_generator, validation_steps=50)  # <-
