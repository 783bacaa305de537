# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/33689"
# title = "tf.function strange behavior with global variables"
# sampling = "by-pattern"
# symptom = "none for this version; the thread reports that it works"
# flavour = "keras3"
# kind = "module-level variable created once, guarded, inside a tf.function"
# mistake = "None: the tf.Variable is created only when the global is still None, so it is made on the first trace only and reused afterwards."
# clean = true
# ///
import tensorflow as tf

foo = None


@tf.function
def bar(value=None):
    if value is not None:
        return tf.constant(value)
    global foo
    if foo is None:
        foo = tf.Variable(1)
    return foo.read_value()


bar()
bar()
