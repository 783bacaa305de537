"""The semantic model: what each name and expression of a module holds.

- :mod:`.flow`: scopes and reaching definitions inside one block;
- :mod:`.terms`: expressions with local names replaced by what reaches them (hashable);
- :mod:`.block`: what one block tells the module (cached with the block);
- :mod:`.values`: the abstract values;
- :mod:`.api`: what TensorFlow/Keras names are (one interface, a built-in table behind it);
- :mod:`.evaluate`: terms to values;
- :mod:`.model`: the blocks combined in order (module names, functions, classes);
- :mod:`.graph`: which function definitions run as a graph, and why;
- :mod:`.saving`: which objects reach which save and load.

Detectors read all of it through :class:`tflsp.analysis.context.BlockContext`.
"""
