# /// case
# source = "https://github.com/keras-team/keras/issues/19052"
# title = "Layer objects have no attribute `input_shape` or `output_shape`"
# sampling = "by-pattern"
# symptom = "AttributeError: 'Dense' object has no attribute 'output_shape'"
# flavour = "keras3"
# kind = "layer members removed in Keras 3 (add_update, input_shape/output_shape, get_output_at, Metric.reset_states)"
# mistake = "After moving from tf.keras to Keras 3, a helper collects every layer's input_shape/output_shape, attributes Keras 3 layers no longer have."
# runtime = "raises"
# expected = ["TFL610"]
# ///
import keras


def layer_shapes(model: keras.Model):
    first = model.layers[0]
    shapes = {first.name: first.input_shape[0]}  # <-
    for layer in model.layers[1:]:
        shapes[layer.name] = layer.output_shape  # <-
    return shapes
