# /// case
# source = "https://github.com/krishnaik06/Deep-Learning-Car-Brand/issues/5"
# title = "logits and labels must be broadcastable"
# sampling = "by-symptom: logits and labels must be broadcastable: logits_size labels_size keras fit"
# symptom = "logits and labels must be broadcastable: logits_size=[32,8] labels_size=[32,7]"
# flavour = "tf.keras"
# kind = "number of output units derived from something other than the label set"
# mistake = "The output size is len(glob('train/*')), which also counts a stray desktop.ini file, so the model has 8 outputs for 7 classes."
# runtime = "raises"
# ///
from glob import glob

from tensorflow.keras.applications.resnet50 import ResNet50
from tensorflow.keras.layers import Dense, Flatten
from tensorflow.keras.models import Model

IMAGE_SIZE = [224, 224]
resnet = ResNet50(input_shape=IMAGE_SIZE + [3], weights="imagenet", include_top=False)
for layer in resnet.layers:
    layer.trainable = False
folders = glob("Datasets/train/*")  # <-
x = Flatten()(resnet.output)
prediction = Dense(len(folders), activation="softmax")(x)  # <-
model = Model(inputs=resnet.input, outputs=prediction)
model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
