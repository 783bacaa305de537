"""Save/load family (TFL401-TFL406): hard cases, Keras 2/3 targeting and code that must pass."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import analyze, analyzer, lint
from tflsp.analysis.fixes import apply_edits

SAVING = ("TFL401", "TFL402", "TFL403", "TFL404", "TFL405", "TFL406")


def found(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, SAVING, target) if c == code]


def diagnostic(source: str, code: str, target: str = "3"):  # type: ignore[no-untyped-def]
    [diag] = [d for d in analyze(source, SAVING, target).diagnostics if d.code == code]
    return diag


def fixed(source: str, code: str, target: str = "3") -> str:
    diag = diagnostic(source, code, target)
    assert diag.fix is not None
    return apply_edits(textwrap.dedent(source), diag.fix.edits)


LAYER = """
from tensorflow import keras

class Doubler(keras.layers.Layer):
    def call(self, x):
        return x * 2
"""


# A model that holds the custom layer, saved: a later Keras load of the file looks the class up.
SAVED = 'saved = keras.Sequential([Doubler()])\nsaved.save("m.keras")\n'


# -- TFL401 unregistered-custom-object -------------------------------------------------------
def test_load_without_custom_objects_flags_the_class_name() -> None:
    source = LAYER + SAVED + 'model = keras.models.load_model("m.keras")\n'
    assert found(source, "TFL401") == [4]
    diag = diagnostic(source, "TFL401")
    assert (diag.column, diag.end_column) == (6, 13)  # the class name
    assert diag.args == {"cls": "Doubler"}


@pytest.mark.parametrize(
    "load",
    [
        'keras.models.load_model("m.keras", custom_objects={"Doubler": Doubler})',
        'keras.models.load_model("m.keras", custom_objects={"demo>Doubler": Doubler})',
        'keras.models.load_model("m.keras", custom_objects=objects)',
        'keras.models.load_model("m.keras", custom_objects={**objects})',
    ],
)
def test_custom_objects_at_every_load_site(load: str) -> None:
    assert found(LAYER + SAVED + f"objects = {{}}\nmodel = {load}\n", "TFL401") == []


def test_one_load_without_the_class_is_enough_to_fail() -> None:
    source = LAYER + (
        "saved = keras.Sequential([Doubler()])\n"
        'for name in ("a.keras", "b.keras"):\n'
        "    saved.save(name)\n"
        'a = keras.models.load_model("a.keras", custom_objects={"Doubler": Doubler})\n'
        'b = keras.models.load_model("b.keras", custom_objects={"Other": object})\n'
    )
    assert found(source, "TFL401") == [4]


def test_a_load_that_cannot_meet_the_class_is_not_enough() -> None:
    # real-code-findings M1: one load anywhere used to make every unregistered class
    # "unloadable"; here the file only holds built-in layers.
    source = LAYER + (
        "print(Doubler()(keras.ops.ones((1, 2))))\n"
        "model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])\n"
        'model.save("m.keras")\n'
        'model = keras.models.load_model("m.keras")\n'
    )
    assert found(source, "TFL401") == []
    # A load before the save, or of another file, cannot meet the saved class either.
    other_file = LAYER + SAVED + 'model = keras.models.load_model("other.keras")\n'
    assert found(other_file, "TFL401") == [4]  # saved without registration: save_only
    assert diagnostic(other_file, "TFL401").message_id == "save_only"
    load_first = LAYER + 'model = keras.models.load_model("m.keras")\n' + SAVED
    assert diagnostic(load_first, "TFL401").message_id == "save_only"


def test_a_load_of_a_file_saved_elsewhere() -> None:
    # A script that defines a layer it never uses and loads a model trained elsewhere: the
    # class is there for that file (a real issue: "Unknown layer" on load).
    load = 'model = keras.models.load_model("m.keras")\n'
    assert found(LAYER + load, "TFL401") == [4]
    assert (
        found(LAYER + "model = keras.models.load_model(path, custom_objects=objects)\n", "TFL401")
        == []
    )
    # A class the module uses for something else is not known to be in that file.
    used = LAYER + "print(Doubler()(keras.ops.ones((1, 2))))\n" + load
    assert found(used, "TFL401") == []


def test_a_sequential_grown_with_add() -> None:
    source = LAYER + (
        "model = keras.Sequential()\n"
        "model.add(keras.layers.Dense(2))\n"
        "model.add(Doubler())\n"
        'model.save("m.h5")\n'
        'model = keras.models.load_model("m.h5")\n'
    )
    assert found(source, "TFL401") == [4]


def test_editing_the_load_site_updates_the_unchanged_class_block() -> None:
    lint_ = analyzer(SAVING)
    before = LAYER + SAVED + 'model = keras.models.load_model("m.keras")\n'
    after = before.replace('"m.keras")', '"m.keras", custom_objects={"Doubler": Doubler})')
    assert [d.code for d in lint_.analyze(before).diagnostics] == ["TFL401"]
    assert [d.code for d in lint_.analyze(after).diagnostics] == []
    assert [d.code for d in lint_.analyze(before).diagnostics] == ["TFL401"]


def test_classes_inside_a_function_meet_only_that_functions_loads() -> None:
    source = """
        import keras

        def test_saving():
            class Local(keras.layers.Layer):
                pass

            return keras.models.load_model("m.keras", custom_objects={"Local": Local})

        def test_other():
            class Helper(keras.layers.Layer):
                pass

            return Helper()

        def test_broken():
            class Broken(keras.layers.Layer):
                pass

            keras.Sequential([Broken()]).save("b.keras")
            return keras.models.load_model("b.keras")

        other = keras.models.load_model("x.keras")
    """
    assert found(source, "TFL401") == [17]


def test_custom_object_scope_around_the_load() -> None:
    source = (
        LAYER
        + SAVED
        + (
            'with keras.utils.custom_object_scope({"Doubler": Doubler}):\n'
            '    model = keras.models.load_model("m.keras")\n'
        )
    )
    assert found(source, "TFL401") == []


@pytest.mark.parametrize(
    "decorator",
    [
        "@keras.saving.register_keras_serializable()",
        '@keras.utils.register_keras_serializable(package="demo")',
        "@register_keras_serializable",
        "@tf.keras.utils.register_keras_serializable()",
    ],
)
def test_registered_in_any_spelling(decorator: str) -> None:
    source = f"""
import tensorflow as tf
from tensorflow import keras
from keras.saving import register_keras_serializable

{decorator}
class Doubler(keras.layers.Layer):
    def call(self, x):
        return x * 2

model = keras.models.load_model("m.keras")
"""
    assert found(source, "TFL401") == []


def test_registering_by_hand_in_get_custom_objects() -> None:
    source = (
        LAYER
        + SAVED
        + (
            'keras.utils.get_custom_objects()["Doubler"] = Doubler\n'
            'model = keras.models.load_model("m.keras")\n'
        )
    )
    assert found(source, "TFL401") == []


def test_saving_an_instance_of_an_unregistered_model_class() -> None:
    source = """
        import keras

        class Net(keras.Model):
            def call(self, x):
                return x

        net = Net()
        net.save("net.keras")
    """
    diag = diagnostic(source, "TFL401")
    assert (diag.line, diag.message_id) == (4, "save_only")
    after = fixed(source, "TFL401")
    assert "@keras.saving.register_keras_serializable()\nclass Net(keras.Model):" in after
    assert found(after, "TFL401") == []


def test_model_class_that_is_never_saved_or_loaded() -> None:
    source = """
        import keras

        class Net(keras.Model):
            def call(self, x):
                return x

        other = keras.Sequential([keras.layers.Dense(1)])
        other.save("other.keras")
        net = Net()
        net.save_weights("net.weights.h5")
    """
    assert found(source, "TFL401") == []


def test_only_layers_inside_the_saved_model_are_saved() -> None:
    # A model built elsewhere is not known to hold the layer (it used to be assumed).
    assert found(LAYER + 'model = build()\nmodel.save("m.keras")\n', "TFL401") == []
    assert found(LAYER + SAVED, "TFL401") == [4]
    functional = LAYER + (
        "inputs = keras.Input((2,))\n"
        "model = keras.Model(inputs, Doubler()(inputs))\n"
        'keras.saving.save_model(model, "m.keras")\n'
    )
    assert found(functional, "TFL401") == [4]


def test_sublayers_a_registered_model_makes_in_init_are_not_looked_up() -> None:
    # Loading calls the registered model's __init__, which builds the sublayer itself.
    source = LAYER + (
        "@keras.saving.register_keras_serializable()\n"
        "class Net(keras.Model):\n"
        "    def __init__(self, **kwargs):\n"
        "        super().__init__(**kwargs)\n"
        "        self.inner = Doubler()\n"
        "    def call(self, x):\n"
        "        return self.inner(x)\n"
        "net = Net()\n"
        'net.save("net.keras")\n'
        'net = keras.models.load_model("net.keras")\n'
    )
    assert found(source, "TFL401") == []


def test_pictures_are_not_models() -> None:
    # real-code-findings M4: a PIL image's save() is not a model save.
    source = LAYER + (
        "import numpy as np\n"
        "img = keras.utils.array_to_img(Doubler()(np.ones((2, 2, 3))))\n"
        'img.save("a.png")\n'
        'model = keras.models.load_model("a.png")\n'
    )
    assert found(source, "TFL401") == []


def test_no_save_or_load_in_the_module() -> None:
    assert found(LAYER + "model = keras.Sequential([Doubler()])\n", "TFL401") == []


def test_abstract_local_base_classes_are_not_flagged() -> None:
    source = """
        from tensorflow import keras

        class Block(keras.layers.Layer):
            pass

        @keras.utils.register_keras_serializable()
        class Residual(Block):
            def call(self, x):
                return x

        model = keras.models.load_model("m.keras")
    """
    assert found(source, "TFL401") == []


def test_keras2_savedmodel_directories_do_not_need_the_class() -> None:
    source = """
        import tf_keras as keras

        class Net(keras.Model):
            def call(self, x):
                return x

        net = Net()
        net.save("exported")
        restored = keras.models.load_model("exported")
    """
    assert found(source, "TFL401", target="2") == []
    keras_file = source.replace('"exported"', '"net.keras"')
    assert found(keras_file, "TFL401", target="2") == [4]


def test_a_path_whose_end_is_known_decides_the_format() -> None:
    # A test saves a Keras 2 model under a temporary directory: a SavedModel, revived
    # without the class; on Keras 3 the same save raises.
    source = """
        import tf_keras

        class Wrapper(tf_keras.Model):
            def __init__(self, layer):
                super().__init__()
                self.layer = layer

            def call(self, inputs):
                return self.layer(inputs)

        class SaveTest:
            def test_save(self):
                path = self.get_temp_dir() + "/model"
                wrapper = Wrapper(tf_keras.layers.Dense(2))
                wrapper.save(path)
                tf_keras.models.load_model(path)
    """
    assert found(source, "TFL401") == found(source, "TFL402") == []
    keras3 = source.replace("tf_keras", "keras")
    assert found(keras3, "TFL404") == [16, 17]


def test_fix_spelling_for_a_tensorflow_only_import() -> None:
    source = """
        import tensorflow as tf

        class Doubler(tf.keras.layers.Layer):
            def call(self, x):
                return x * 2

        saved = tf.keras.Sequential([Doubler()])
        saved.save("m.keras")
        m = tf.keras.models.load_model("m.keras")
    """
    after = fixed(source, "TFL401")
    assert "@tf.keras.utils.register_keras_serializable()\nclass Doubler" in after


# -- TFL402 missing-get-config ---------------------------------------------------------------
def model_with(init: str, extra: str = 'net.save("net.keras")') -> str:
    return f"""
import keras

@keras.saving.register_keras_serializable()
class Net(keras.Model):
    def __init__(self, {init}, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(4)

    def call(self, x):
        return self.dense(x)

{extra}
"""


def test_keras3_model_with_plain_required_argument() -> None:
    source = model_with("units")
    diag = diagnostic(source, "TFL402")
    assert (diag.line, diag.message_id, diag.args["args"]) == (5, "model_required", "`units`")
    assert found(source, "TFL402", target="2") == []  # Keras 2 records plain arguments


def test_keras3_model_with_defaulted_argument() -> None:
    assert diagnostic(model_with("units=3"), "TFL402").message_id == "model_default"


@pytest.mark.parametrize(
    "init",
    [
        "backbone: keras.layers.Layer",
        "activation=keras.activations.relu",
        "initializer=keras.initializers.Zeros()",
        "make_head",
    ],
)
def test_object_arguments_fail_on_both_versions(init: str) -> None:
    source = (
        model_with(init).replace(
            "self.dense = keras.layers.Dense(4)",
            "self.dense = keras.layers.Dense(4)\n        self.head = make_head()",
        )
        if init == "make_head"
        else model_with(init)
    )
    for target in ("3", "2"):
        assert diagnostic(source, "TFL402", target).message_id == "non_basic"


def test_layer_with_plain_arguments_is_fine_and_layer_argument_is_not() -> None:
    source = """
        import keras

        @keras.saving.register_keras_serializable()
        class Block(keras.layers.Layer):
            def __init__(self, units: int = 4, activation: str | None = "relu", rate=0.1, **kwargs):
                super().__init__(**kwargs)
                self.dense = keras.layers.Dense(units, activation=activation)

        @keras.saving.register_keras_serializable()
        class Wrapper(keras.layers.Layer):
            def __init__(self, inner, **kwargs):
                super().__init__(**kwargs)
                self.inner = inner

            def call(self, x):
                return self.inner(x)
    """
    assert found(source, "TFL402") == [11]
    assert found(source, "TFL402", target="2") == [11]


def test_only_modules_that_serialize_are_checked() -> None:
    plain = model_with("units", extra='net.save_weights("net.weights.h5")')
    unregistered = plain.replace("@keras.saving.register_keras_serializable()\n", "")
    assert found(unregistered, "TFL402") == []
    assert found(plain, "TFL402") == [5]  # registered: meant to be serialized
    # real-code-findings M1: a load (or a save) of something else does not serialize ``Net``.
    loads = unregistered + 'other = keras.models.load_model("x.keras")\n'
    assert found(loads, "TFL402") == []
    saves = unregistered + 'net = Net(4)\nnet.save("net.keras")\n'
    assert found(saves, "TFL402") == [4]


def test_get_config_of_a_class_defined_inside_a_function() -> None:
    source = """
        import keras

        def test_roundtrip():
            @keras.saving.register_keras_serializable()
            class Net(keras.Model):
                def __init__(self, units=2):
                    super().__init__()
                    self.units = units

                def get_config(self):
                    return {"units": self.units}

            return Net(3)
    """
    assert found(source, "TFL402") == []


def test_get_config_here_in_a_local_base_or_a_concrete_keras_base() -> None:
    source = """
        import keras

        class Base(keras.Model):
            def get_config(self):
                return super().get_config()

        @keras.saving.register_keras_serializable()
        class Net(Base):
            def __init__(self, units, **kwargs):
                super().__init__(**kwargs)

        @keras.saving.register_keras_serializable()
        class Wide(keras.layers.Dense):
            def __init__(self, scale, **kwargs):
                super().__init__(4, **kwargs)
    """
    assert found(source, "TFL402") == []


# -- TFL403 get-config-missing-args ----------------------------------------------------------
def layer_with(
    get_config: str, init: str = "units, factor=2.0", extra: str = "", decorator: str = ""
) -> str:
    """A layer whose config Keras will use: registered unless ``decorator`` says otherwise."""
    body = textwrap.indent(textwrap.dedent(get_config).strip(), "    ")
    decorator = decorator or "@keras.saving.register_keras_serializable()"
    return f"""
import keras

{decorator}
class Scale(keras.layers.Layer):
    def __init__(self, {init}, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.factor = factor
{extra}
{body}
"""


def test_missing_defaulted_and_required_arguments() -> None:
    source = layer_with(
        """
        def get_config(self):
            return super().get_config()
        """
    )
    diag = diagnostic(source, "TFL403")
    assert diag.line == 11
    assert diag.args["args"] == "`units`, `factor`"
    assert found(source, "TFL403", target="2") == [11]


def test_config_nothing_rebuilds_is_unknown() -> None:
    """Unregistered and never saved here: whether Keras ever rebuilds it from its config is
    unknown (keras-hub's internal layers are rebuilt by their backbone's constructor)."""
    get_config = """
        def get_config(self):
            return super().get_config()
    """
    source = layer_with(get_config, decorator="# not registered")
    assert found(source, "TFL403") == []
    saved = (
        source
        + "\nmodel = keras.Sequential([keras.Input((3,)), Scale(4)])\n"
        + 'model.save("scaled.keras")\n'
    )
    assert found(saved, "TFL403") == [11]


@pytest.mark.parametrize(
    "get_config",
    [
        """
        def get_config(self):
            config = super().get_config()
            config.update({"units": self.units, "factor": self.factor})
            return config
        """,
        """
        def get_config(self):
            return {**super().get_config(), "units": self.units, "factor": self.factor}
        """,
        """
        def get_config(self):
            config = super().get_config()
            config["units"] = self.units
            config.update(factor=self.factor)
            return config
        """,
        """
        def get_config(self):
            base_config = super().get_config()
            config = {"units": self.units, "factor": self.factor}
            return dict(list(base_config.items()) + list(config.items()))
        """,
    ],
)
def test_complete_configs_in_common_spellings(get_config: str) -> None:
    assert found(layer_with(get_config), "TFL403") == []


@pytest.mark.parametrize(
    "get_config",
    [
        """
        def get_config(self):
            config = super().get_config()
            config.update(self._extra_config())
            return config
        """,
        """
        def get_config(self):
            return dict(vars(self))
        """,
    ],
)
def test_configs_built_opaquely_are_left_alone(get_config: str) -> None:
    assert found(layer_with(get_config), "TFL403") == []


def test_arguments_forwarded_to_the_base_class() -> None:
    source = """
        import keras

        class Scale(keras.layers.Layer):
            def __init__(self, units, name=None, trainable=True, **kwargs):
                super().__init__(name=name, trainable=trainable, **kwargs)
                self.units = units

            def get_config(self):
                config = super().get_config()
                config.update({"units": self.units})
                return config
    """
    assert found(source, "TFL403") == []


def test_arguments_forwarded_to_a_local_base_with_its_own_config() -> None:
    source = """
        import keras

        class Base(keras.layers.Layer):
            def __init__(self, units, **kwargs):
                super().__init__(**kwargs)
                self.units = units

            def get_config(self):
                return {**super().get_config(), "units": self.units}

        @keras.saving.register_keras_serializable()
        class Scaled(Base):
            def __init__(self, units, factor=2.0, **kwargs):
                super().__init__(units, **kwargs)
                self.factor = factor

            def get_config(self):
                return {**super().get_config(), "factor": self.factor}
    """
    assert found(source, "TFL403") == []
    without_super = source.replace(
        '{**super().get_config(), "factor": self.factor}', '{"factor": self.factor}'
    )
    assert found(without_super, "TFL403") == [18]


def test_get_config_that_refuses_on_purpose() -> None:
    source = """
        import keras

        class Tokenizer(keras.layers.Layer):
            def __init__(self, vocabulary, lower_case=True, **kwargs):
                super().__init__(**kwargs)
                self.vocabulary = vocabulary
                self.lower_case = lower_case

            def get_config(self):
                raise NotImplementedError("not serializable yet")
    """
    assert found(source, "TFL403") == []


def test_custom_from_config_that_maps_keys_itself() -> None:
    source = layer_with(
        """
        def get_config(self):
            return {"size": self.units}

        @classmethod
        def from_config(cls, config):
            return cls(config["size"])
        """
    )
    assert found(source, "TFL403") == []
    through = source.replace('cls(config["size"])', "cls(**config)")
    assert found(through, "TFL403") == [11]


def test_custom_from_config_supplies_what_the_config_leaves_out() -> None:
    # tensorflow-recommenders' unified embedding: from_config rebuilds the sublayer from the
    # config and passes placeholders for the arguments the config does not carry.
    source = """
        import keras

        @keras.saving.register_keras_serializable()
        class Lookup(keras.layers.Layer):
            def __init__(self, spec, optimizer, width=8, **kwargs):
                super().__init__(**kwargs)
                self.width = width
                self.table = keras.layers.Embedding(spec.rows, width)
                self.optimizer = optimizer

            def get_config(self):
                table = keras.saving.serialize_keras_object(self.table)
                return {**super().get_config(), "width": self.width, "table": table}

            @classmethod
            def from_config(cls, config):
                table = keras.saving.deserialize_keras_object(config.pop("table"))
                config["spec"] = EmptySpec()
                config.update(optimizer=None)
                layer = cls(**config)
                layer.table = table
                return layer
    """
    assert found(source, "TFL403") == []
    passed = source.replace("config.update(optimizer=None)", "pass").replace(
        "cls(**config)", "cls(optimizer=None, **config)"
    )
    assert found(passed, "TFL403") == []
    merged = source.replace("config.update(optimizer=None)", "pass").replace(
        "cls(**config)", 'cls(**{**config, "optimizer": None})'
    )
    assert found(merged, "TFL403") == []
    copied = source.replace("config.update(optimizer=None)", "pass").replace(
        "layer = cls(**config)",
        'rebuilt = {**config, "optimizer": None}\n        layer = cls(**rebuilt)',
    )
    assert found(copied, "TFL403") == []
    forgotten = source.replace("config.update(optimizer=None)", "pass")
    assert found(forgotten, "TFL403") == [12]
    assert diagnostic(forgotten, "TFL403").args["args"] == "`optimizer`"


def test_arguments_that_reach_the_config_through_an_object_built_from_them() -> None:
    # tf-models' transformer scaffold: the sublayer made in build() from a class and its
    # options is stored in the config under the class argument; the options travel with it.
    source = """
        import keras

        @keras.saving.register_keras_serializable()
        class Block(keras.layers.Layer):
            def __init__(self, units, inner_cls=keras.layers.Dense, inner_cfg=None, **kwargs):
                super().__init__(**kwargs)
                self._units = units
                self._inner_cls = inner_cls
                self._inner_cfg = inner_cfg

            def build(self, shape):
                options = self._inner_cfg or {"units": self._units}
                self._inner = self._inner_cls(**options)

            def get_config(self):
                return {**super().get_config(), "units": self._units, "inner_cls": self._inner}
    """
    assert found(source, "TFL403") == []
    # Under a key the constructor does not take, the built object carries nothing back.
    renamed = source.replace('"inner_cls": self._inner', '"inner": self._inner')
    assert diagnostic(renamed, "TFL403").args["args"] == "`inner_cls`, `inner_cfg`"
    # A plain value stored next to an unrelated object is still lost.
    unrelated = source.replace("self._inner_cls(**options)", "keras.layers.Dense(4)")
    assert diagnostic(unrelated, "TFL403").args["args"] == "`inner_cfg`"
    # A number computed from an argument does not carry it back, nor does a sublayer's field.
    computed = layer_with(
        """
        def get_config(self):
            return {**super().get_config(), "units": int(self.units * self.factor)}
        """
    )
    assert diagnostic(computed, "TFL403").args["args"] == "`factor`"
    field = layer_with(
        """
        def build(self, shape):
            self.dense = keras.layers.Dense(self.units, activation=self.factor)

        def get_config(self):
            return {**super().get_config(), "units": self.dense.units}
        """
    )
    assert diagnostic(field, "TFL403").args["args"] == "`factor`"


def test_values_a_weight_restores_with_a_shape_the_config_keeps() -> None:
    # TF-GNN's bytes lookup layer: the values live in a non-trainable string weight (configs
    # hold JSON), the config keeps the weight's shape under a key __init__ pops from kwargs;
    # cls(**config) makes the weight and loading the weights brings the values back.
    source = """
        import keras
        import tensorflow as tf

        @keras.saving.register_keras_serializable()
        class Table(keras.layers.Layer):
            def __init__(self, values=None, **kwargs):
                shape = kwargs.pop("values_shape", None)
                super().__init__(**kwargs)
                if values is None:
                    init = tf.constant_initializer("")
                else:
                    init = tf.constant_initializer(values)
                    shape = tf.TensorShape([len(values)])
                self.table = self.add_weight(
                    name="values", shape=shape, dtype=tf.string, initializer=init,
                    trainable=False,
                )

            def get_config(self):
                return {"values_shape": self.table.shape, **super().get_config()}
    """
    assert found(source, "TFL403") == []
    # Without the popped shape key the rebuilt layer cannot make its weight: reported.
    no_shape = source.replace('"values_shape": self.table.shape, ', "")
    assert diagnostic(no_shape, "TFL403").args["args"] == "`values`"
    # A value that also reaches anything but the weight is lost with the config.
    also_kept = source.replace(
        "        self.table = self.add_weight(",
        "        self.values = values\n                self.table = self.add_weight(",
    )
    assert diagnostic(also_kept, "TFL403").args["args"] == "`values`"


def test_unused_optional_argument_is_not_required_in_the_config() -> None:
    source = """
        import keras

        class Scale(keras.layers.Layer):
            def __init__(self, units, debug=False, **kwargs):
                super().__init__(**kwargs)
                self.units = units

            def get_config(self):
                return {**super().get_config(), "units": self.units}
    """
    assert found(source, "TFL403") == []


# -- TFL404 save-path-extension --------------------------------------------------------------
MODEL = "import os\nimport keras\nmodel = keras.Sequential([keras.layers.Dense(1)])\n"


@pytest.mark.parametrize(
    ("call", "path"),
    [
        ('model.save("my_model")', "my_model"),
        ('model.save(os.path.join(out, "my_model"))', "my_model"),
        ('model.save(f"{out}/model_{epoch}/final")', "/final"),
        ('keras.saving.save_model(model, "exported")', "exported"),
        ('keras.models.save_model(model, filepath="dir/sub")', "dir/sub"),
    ],
)
def test_paths_without_keras_extension(call: str, path: str) -> None:
    source = MODEL + "out = epoch = None\n" + call + "\n"
    diag = diagnostic(source, "TFL404")
    assert diag.line == 5
    assert diag.args["path"].endswith(path)
    assert found(source, "TFL404", target="2") == []


def test_the_model_of_a_callback_is_a_keras_model() -> None:
    source = """
        import keras

        class Saver(keras.callbacks.Callback):
            def on_epoch_end(self, epoch, logs=None):
                self.model.save("from_callback")
    """
    assert found(source, "TFL404") == [6]


def test_save_on_an_object_of_unknown_kind_is_not_checked() -> None:
    # real-code-findings M4: receivers used to be guessed from their names.
    source = """
        import keras

        def export(model, image):
            model.save("exported")
            image.save("picture.png")
    """
    assert found(source, "TFL404") == []


def test_paths_through_a_local_name_assigned_once() -> None:
    source = """
        import os
        import keras

        def save(out):
            model = keras.Sequential([keras.layers.Dense(1)])
            path = os.path.join(out, "my_model")
            model.save(path)
            weights = "run/ckpt"
            model.save_weights(weights)

        def ambiguous(out, final):
            model = keras.models.load_model("m.keras")
            path = "a.keras"
            if final:
                path = "exported"
            model.save(path)
    """
    assert found(source, "TFL404") == [8]
    assert found(source, "TFL405") == [10]
    assert 'path = os.path.join(out, "my_model.keras")' in fixed(source, "TFL404")


def test_paths_through_module_constants() -> None:
    # real-code-findings, misses: save paths held in module constants or built from them.
    source = MODEL + (
        'RUNS = "runs"\n'
        "path = RUNS + '/model'\n"
        "model.save(path)\n"
        "model.save_weights(f'{RUNS}/weights')\n"
        "model.save(os.path.join(RUNS, 'ok.keras'))\n"
    )
    assert found(source, "TFL404") == [6]
    assert diagnostic(source, "TFL404").args["path"] == "runs/model"
    assert found(source, "TFL405") == [7]


def test_fix_appends_the_keras_suffix() -> None:
    after = fixed(MODEL + 'model.save("saved/my_model")\n', "TFL404")
    assert 'model.save("saved/my_model.keras")' in after
    after = fixed(MODEL + "model.save(f'{0}/m')\n", "TFL404")
    assert "model.save(f'{0}/m.keras')" in after


@pytest.mark.parametrize(
    "call",
    [
        'model.save("m.keras")',
        'model.save("m.h5")',
        "model.save(unknown_path)",
        'model.save("dir", zipped=False)',
        'model.save("hf://user/model")',
        'model.export("serving")',
        'tf.saved_model.save(model, "exported")',
        'checkpoint.save("ckpt/prefix")',
        'np.save("arr", model)',
        'image.save("picture")',
        'train_ds.save("cache_dir")',
        'model_checkpoint.save("ckpt")',
        'self.dataset.save("cache_dir")',
    ],
)
def test_not_a_keras_save_without_extension(call: str) -> None:
    source = (
        MODEL
        + "import numpy as np\nimport tensorflow as tf\nunknown_path = input()\n"
        + "checkpoint = tf.train.Checkpoint(model=model)\nimage = load_image()\ntrain_ds = None\n"
        + call
        + "\n"
    )
    assert found(source, "TFL404") == []


def test_loading_a_savedmodel_directory_on_keras3() -> None:
    source = MODEL + (
        'a = keras.models.load_model("exported")\n'
        'b = keras.saving.load_model("m.keras")\n'
        'c = keras.models.load_model("hf://user/model")\n'
        'd = keras.models.load_model(os.path.join("runs", "legacy.h5"))\n'
    )
    diag = diagnostic(source, "TFL404")
    assert (diag.line, diag.message_id, diag.fix) == (4, "load", None)
    assert found(source, "TFL404", target="2") == []


def test_save_format_argument() -> None:
    source = MODEL + 'model.save("exported", save_format="tf")\n'
    diag = diagnostic(source, "TFL404")
    assert diag.message_id == "save_format"
    assert 'model.save("exported.keras")' in fixed(source, "TFL404")
    h5 = MODEL + 'model.save(save_format="h5", filepath="weights_dir/m")\n'
    assert 'model.save(filepath="weights_dir/m.h5")' in fixed(h5, "TFL404")


# -- TFL405 save-weights-extension -----------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ('model.save_weights("ckpt")', 'model.save_weights("ckpt.weights.h5")'),
        ('model.save_weights("w.h5")', 'model.save_weights("w.weights.h5")'),
        ('model.save_weights("run/model.ckpt")', 'model.save_weights("run/model.weights.h5")'),
        ('model.load_weights("ckpt")', 'model.load_weights("ckpt.weights.h5")'),
        (
            'keras.saving.save_weights(model, "w")',
            'keras.saving.save_weights(model, "w.weights.h5")',
        ),
    ],
)
def test_weight_file_names_on_keras3(call: str, expected: str) -> None:
    source = MODEL + call + "\n"
    assert found(source, "TFL405") == [4]
    assert expected in fixed(source, "TFL405")
    assert found(source, "TFL405", target="2") == []


@pytest.mark.parametrize(
    "call",
    [
        'model.save_weights("w.weights.h5")',
        'model.save_weights("w.weights.json", max_shard_size=2)',
        'model.load_weights("w.weights.h5")',
        'model.load_weights("legacy.h5")',
        'model.load_weights("full.keras")',
        "model.load_weights(path)",
    ],
)
def test_weight_file_names_keras3_accepts(call: str) -> None:
    assert found(MODEL + "path = None\n" + call + "\n", "TFL405") == []


def test_orbax_checkpoint_directories_load_on_keras3() -> None:
    source = MODEL + (
        'callback = keras.callbacks.OrbaxCheckpoint("ckpts")\nmodel.load_weights("ckpts")\n'
    )
    assert found(source, "TFL405") == []


def test_load_weights_message_variant() -> None:
    assert diagnostic(MODEL + 'model.load_weights("ckpt")\n', "TFL405").message_id == "load_weights"


# -- TFL406 legacy-h5-format -----------------------------------------------------------------
def test_h5_model_files_on_both_versions_with_a_keras2_subclass_variant() -> None:
    source = """
        import keras

        class Net(keras.Model):
            def call(self, x):
                return x

        seq = keras.Sequential([keras.layers.Dense(1)])
        seq.save("seq.h5")
        net = Net()
        net.save("net.hdf5")
        keras.saving.save_model(seq, "seq2.h5")
    """
    assert found(source, "TFL406") == [9, 11, 12]
    assert found(source, "TFL406", target="2") == [9, 11, 12]
    variants = [
        d.message_id for d in analyze(source, SAVING, "2").diagnostics if d.code == "TFL406"
    ]
    assert variants == ["default", "keras2_subclassed", "default"]
    only_net = source.replace('seq.save("seq.h5")', "").replace('"seq2.h5"', '"seq2.keras"')
    assert 'net.save("net.keras")' in fixed(only_net, "TFL406")


def test_weights_h5_is_not_a_legacy_model_file() -> None:
    source = MODEL + 'model.save_weights("w.h5")\nmodel.save_weights("w.weights.h5")\n'
    assert found(source, "TFL406", target="2") == []
    assert found(source, "TFL406") == []


ODD_CODE = [
    "model.save()\nmodel.save_weights()\nkeras.models.load_model()\n",
    "model.save(*args)\nmodel.save(**kw)\nkeras.saving.save_model(**kw)\n",
    "keras.models.load_model('m.keras', custom_objects={1: 2, None: 3})\n",
    "class A(keras.Model):\n    def __init__(self, *a, b=1, **k):\n        pass\n"
    "    def get_config(self):\n        return {1: 2, **self.__dict__}\n",
    "class B(keras.layers.Layer):\n    def __init__(self, x, /, y):\n        pass\n"
    "    def get_config(self):\n        c = {}\n        c[self.k] = 1\n        return c\n",
    "model.save('''multi\nline''')\nmodel.save(r'raw')\nmodel.save(b'bytes')\n",
    "with keras.utils.custom_object_scope():\n    keras.models.load_model('x.keras')\n",
]


@pytest.mark.parametrize("body", ODD_CODE)
def test_odd_code_does_not_crash_the_detectors(body: str) -> None:
    lint("import keras\nmodel = keras.Model()\n" + body, SAVING)


def test_keras_only_save_keywords_identify_a_model_save() -> None:
    # ``save_format=`` exists only on Keras' Model.save: a parameter receiving it is a model.
    source = """
        def export(model, path, save_format):
            model.save(path, include_optimizer=False, save_format=save_format)
    """
    assert found(source, "TFL404") == [3]
