# /// case
# source = "https://github.com/matterport/Mask_RCNN/issues/427"
# title = "Repeat \"softmax\" activations in \"mrcnn_class_logits\""
# sampling = "by-symptom: received from_logits=True but the output argument was produced by a sigmoid or softmax activation and thus does not represent logits"
# symptom = "none; a reader suspected softmax was applied twice"
# flavour = "keras3"
# kind = "logits to the loss, probabilities as a second output"
# mistake = "None: the head returns both the raw logits and a softmax of them; only the logits reach the from_logits loss, as the maintainers answered."
# clean = true
# ///
import keras
import tensorflow as tf

features = keras.Input((256,))
class_logits = keras.layers.Dense(81, name="class_logits")(features)
class_probs = keras.layers.Activation("softmax", name="class_probs")(class_logits)
head = keras.Model(features, [class_logits, class_probs])


def class_loss(target_ids, logits):
    per_roi = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target_ids, logits=logits)
    return tf.reduce_mean(per_roi)


def head_loss(batch_features, target_ids):
    logits, _ = head(batch_features)
    return class_loss(target_ids, logits)


print(head_loss(tf.ones((2, 256)), tf.constant([1, 2])))
