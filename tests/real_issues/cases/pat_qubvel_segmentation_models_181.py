# /// case
# source = "https://github.com/qubvel/segmentation_models/issues/181"
# title = "ValueError: Unknown loss function:binary_crossentropy + jaccard_loss"
# sampling = "by-pattern"
# symptom = "ValueError: Unknown loss function:binary_crossentropy + jaccard_loss"
# flavour = "tf.keras"
# kind = "custom loss/metric not given to load_model (custom_objects or compile=False)"
# mistake = "A model trained with the library's bce_jaccard_loss and IOUScore metric is loaded with keras.models.load_model(filepath) alone; importing the library does not register them."
# runtime = "raises"
# ///
import keras
import segmentation_models as sm

model = sm.Unet("resnet34", classes=1, activation="sigmoid")
model.compile("adam", loss=sm.losses.bce_jaccard_loss, metrics=[sm.metrics.IOUScore()])
model.save("unet.h5")

restored = keras.models.load_model("unet.h5")  # <-
