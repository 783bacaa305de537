# /// case
# source = "https://github.com/JesperDramsch/keras-complex/pull/24"
# title = "Fixes for newer tensorflow version"
# sampling = "by-pattern"
# symptom = "'ComplexBatchNormalization' object has no attribute 'add_update'"
# flavour = "keras3"
# kind = "layer members removed in Keras 3 (add_update, input_shape/output_shape, get_output_at, Metric.reset_states)"
# mistake = "A complex-valued batch normalization layer updates its moving statistics with K.moving_average_update() collected into self.add_update(); Keras 3 has neither."
# runtime = "raises"
# expected = ["TFL610", "TFL609"]
# note = "The moving statistics are plain add_weight variables; in Keras 3 they are updated with variable.assign() inside call()."
# ///
from keras import backend as K
from keras.layers import Layer


class ComplexBatchNormalization(Layer):
    def __init__(self, momentum=0.9, center=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.center = center

    def build(self, input_shape):
        dim = input_shape[-1] // 2
        self.moving_mean = self.add_weight(shape=(dim * 2,), initializer="zeros", trainable=False, name="moving_mean")
        self.moving_vrr = self.add_weight(shape=(dim,), initializer="ones", trainable=False, name="moving_vrr")

    def call(self, inputs, training=None):
        mu, vrr, centred = self._statistics(inputs)
        if training:
            update_list = []
            if self.center:
                update_list.append(K.moving_average_update(self.moving_mean, mu, self.momentum))  # <-
            update_list.append(K.moving_average_update(self.moving_vrr, vrr, self.momentum))  # <-
            self.add_update(update_list)  # <-
        return centred
