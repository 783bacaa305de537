# /// case
# source = "https://github.com/lovedlim/tensorflow/issues/2"
# title = "4.5 개/고양이 분류에서 from_logits 관련 Warning"
# sampling = "by-symptom: received from_logits=True but the output argument was produced by a sigmoid or softmax activation and thus does not represent logits"
# symptom = "UserWarning: \"`binary_crossentropy` received `from_logits=True`, but the `output` argument was produced by a sigmoid or softmax activation and thus does not represent logits. Was this intended?\""
# flavour = "tf.keras"
# kind = "sigmoid/softmax output + from_logits=True"
# mistake = "A cats-vs-dogs CNN ends in a sigmoid unit but compiles BinaryCrossentropy(from_logits=True)."
# runtime = "warns"
# expected = ["TFL803"]
# ///
from tensorflow.keras import layers, losses, models

net = models.Sequential(
    [
        layers.Conv2D(32, 3, activation="relu", input_shape=(150, 150, 3)),
        layers.MaxPooling2D(),
        layers.Conv2D(64, 3, activation="relu"),
        layers.MaxPooling2D(),
        layers.Flatten(),
        layers.Dense(128, activation="relu"),
        layers.Dense(1, activation="sigmoid"),  # <-
    ]
)
net.compile(
    optimizer="rmsprop",
    loss=losses.BinaryCrossentropy(from_logits=True),  # <-
    metrics=["accuracy"],
)
