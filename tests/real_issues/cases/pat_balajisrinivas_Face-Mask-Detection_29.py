# /// case
# source = "https://github.com/balajisrinivas/Face-Mask-Detection/issues/29"
# title = "ValueError"
# sampling = "by-pattern"
# symptom = "ValueError: decay is deprecated in the new Keras optimizer, pleasecheck the docstring for valid arguments, or use the legacy optimizer, e.g., tf.keras.optimizers.legacy.Adam."
# flavour = "tf.keras"
# kind = "optimizer decay= argument (removed; use a LearningRateSchedule)"
# mistake = "The training script builds Adam(lr=INIT_LR, decay=INIT_LR / EPOCHS); the new optimizers reject decay (and lr)."
# runtime = "raises"
# ///
from tensorflow.keras.optimizers import Adam

INIT_LR = 1e-4
EPOCHS = 20


def compile_detector(model):
    opt = Adam(lr=INIT_LR, decay=INIT_LR / EPOCHS)  # <-
    model.compile(loss="binary_crossentropy", optimizer=opt, metrics=["accuracy"])
