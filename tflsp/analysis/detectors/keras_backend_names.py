"""Keras 2 backend functions that Keras 3 dropped (data for TFL602).

Three modules answer to ``keras.backend`` on TF 2.21:

- standalone Keras 3 (``import keras``): ``keras.backend`` keeps only a few helpers;
- ``tf.keras.backend`` under Keras 3 (``keras._tf_keras.keras.backend``): a legacy shim that
  still has most Keras 2 functions;
- tf-keras 2.21 (``tf_keras.backend``, or ``tf.keras`` with ``TF_USE_LEGACY_KERAS=1``): all.

The sets below are the Keras 2 names missing from the first two (listed with ``dir()`` on
Keras 3.15.1 and tf-keras 2.21; the test suite re-checks them when TensorFlow is installed).
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


MISSING_IN_KERAS3 = _words(
    "abs all any arange argmax argmin batch_dot batch_flatten batch_get_value "
    "batch_normalization batch_set_value bias_add binary_crossentropy "
    "binary_focal_crossentropy cast cast_to_floatx categorical_crossentropy "
    "categorical_focal_crossentropy clip concatenate constant conv1d conv2d conv2d_transpose "
    "conv3d cos count_params ctc_batch_cost ctc_decode ctc_label_dense_to_sparse cumprod "
    "cumsum depthwise_conv2d dot dropout dtype elu equal eval exp expand_dims "
    "eye flatten foldl foldr function gather get_value gradients greater greater_equal "
    "hard_sigmoid in_test_phase in_top_k in_train_phase int_shape is_sparse l2_normalize "
    "learning_phase learning_phase_scope less less_equal local_conv1d local_conv2d log "
    "manual_variable_initialization map_fn max maximum mean min minimum moving_average_update "
    "name_scope ndim normalize_batch_in_training not_equal one_hot ones ones_like "
    "permute_dimensions placeholder pool2d pool3d pow print_tensor prod random_bernoulli "
    "random_binomial random_normal random_normal_variable random_uniform "
    "random_uniform_variable relu repeat repeat_elements reset_uids reshape resize_images "
    "resize_volumes reverse rnn round separable_conv2d set_learning_phase set_value shape "
    "sigmoid sign sin softmax softplus softsign sparse_categorical_crossentropy "
    "spatial_2d_padding spatial_3d_padding sqrt square squeeze stack std stop_gradient sum "
    "switch tanh temporal_padding tile to_dense transpose truncated_normal update update_add "
    "update_sub var variable zeros zeros_like"
)

MISSING_IN_TF_KERAS_SHIM = _words(
    "function in_test_phase in_train_phase learning_phase learning_phase_scope "
    "local_conv1d local_conv2d manual_variable_initialization normalize_batch_in_training "
    "placeholder print_tensor random_binomial reset_uids set_learning_phase"
)

# Functions with a namesake in keras.ops (checked with dir(keras.ops) on Keras 3.15.1).
IN_KERAS_OPS = _words(
    "abs all any arange argmax argmin cast clip concatenate cos cumprod cumsum dot elu "
    "equal exp expand_dims eye greater greater_equal hard_sigmoid less less_equal log max "
    "maximum mean min minimum ndim not_equal one_hot ones ones_like prod relu repeat "
    "reshape round shape sigmoid sign sin softmax softplus softsign sqrt square squeeze "
    "stack std stop_gradient sum tanh tile transpose var zeros zeros_like"
)

# The rest: what Keras 3 code does instead.
OTHER_REPLACEMENTS = {
    "int_shape": "`x.shape`",
    "get_value": "`variable.numpy()`",
    "batch_get_value": "`variable.numpy()`",
    "eval": "`x.numpy()`",
    "set_value": "`variable.assign(value)`",
    "batch_set_value": "`variable.assign(value)`",
    "update": "`variable.assign(value)`",
    "update_add": "`variable.assign_add(value)`",
    "update_sub": "`variable.assign_sub(value)`",
    "variable": "`keras.Variable`",
    "constant": "`keras.ops.convert_to_tensor`",
    "function": "`tf.function` / `keras.Model`",
    "placeholder": "`keras.Input`",
    "learning_phase": "`training=`",
    "set_learning_phase": "`training=`",
    "learning_phase_scope": "`training=`",
    "in_train_phase": "`training=`",
    "in_test_phase": "`training=`",
    "gradients": "`tf.GradientTape`",
    "rnn": "`keras.layers.RNN`",
    "pow": "`keras.ops.power`",
    "gather": "`keras.ops.take`",
    "flatten": "`keras.ops.reshape`",
    "batch_flatten": "`keras.ops.reshape`",
    "permute_dimensions": "`keras.ops.transpose`",
    "repeat_elements": "`keras.ops.repeat`",
    "count_params": "`layer.count_params()`",
    "dtype": "`x.dtype`",
    "binary_crossentropy": "`keras.losses.binary_crossentropy`",
    "categorical_crossentropy": "`keras.losses.categorical_crossentropy`",
    "sparse_categorical_crossentropy": "`keras.losses.sparse_categorical_crossentropy`",
    "random_normal": "`keras.random.normal`",
    "random_uniform": "`keras.random.uniform`",
    "truncated_normal": "`keras.random.truncated_normal`",
    "dropout": "`keras.random.dropout`",
    "print_tensor": "`tf.print`",
    "name_scope": "`tf.name_scope`",
}


def replacement_for(name: str) -> str:
    if name in OTHER_REPLACEMENTS:
        return OTHER_REPLACEMENTS[name]
    if name in IN_KERAS_OPS:
        return f"`keras.ops.{name}`"
    return "`keras.ops`"
