# /// case
# source = "https://github.com/matterport/Mask_RCNN/issues/3024"
# title = "No module named 'keras.engine'"
# sampling = "by-pattern"
# symptom = "ModuleNotFoundError: No module named 'keras.engine'"
# flavour = "tf.keras"
# kind = "imports from private/removed Keras submodules"
# mistake = "The Mask R-CNN model code reaches Layer through the internal keras.engine module, which Keras 2.13 and later no longer have; keras.layers.Layer is the public name."
# runtime = "raises"
# expected = ["TFL613"]
# ///
import keras.engine as KE  # <-
import tensorflow as tf


class ProposalLayer(KE.Layer):  # <-
    def __init__(self, proposal_count, nms_threshold, **kwargs):
        super().__init__(**kwargs)
        self.proposal_count = proposal_count
        self.nms_threshold = nms_threshold

    def call(self, inputs):
        scores, boxes = inputs
        keep = tf.image.non_max_suppression(boxes, scores, self.proposal_count, self.nms_threshold)
        return tf.gather(boxes, keep)
